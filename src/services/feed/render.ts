import type { PostView } from './modules/posts/posts.repository.js'
import { imagePath } from './modules/images/images.js'

export interface RenderedPost {
  _id: string
  title: string
  content: string
  imageUrl: string
  creator: { _id: string; name: string }
  createdAt: string
  updatedAt: string
}

/** A post as the original rendered it (Mongo-style string `_id`), creator reduced to {_id, name}. */
export function renderPost(view: PostView): RenderedPost {
  return {
    _id: String(view.id),
    title: view.title,
    content: view.content,
    imageUrl: imagePath(view.image_id, view.image_ext),
    creator: { _id: String(view.creator_id), name: view.creator_name },
    createdAt: view.created_at,
    updatedAt: view.updated_at
  }
}

/** The one Socket.IO event of the feed, "posts", with the original's three payloads. */
export type PostsEvent =
  | { action: 'create'; post: RenderedPost }
  | { action: 'update'; post: RenderedPost }
  | { action: 'delete'; post: string }

export interface FeedEvents {
  /** Broadcast to every connected client (on every instance when Redis is configured). */
  publish(event: PostsEvent): void
}
