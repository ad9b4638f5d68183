import { imagePath } from '../images/images.service.js'
import type { PostView } from './posts.repository.js'

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
