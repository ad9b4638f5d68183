import type { RenderedPost } from '../posts/posts.render.js'

/** The Socket.IO contract of the feed: one event, "posts", with the original's three payloads. */
export type PostsEvent =
  { action: 'create'; post: RenderedPost } | { action: 'update'; post: RenderedPost } | { action: 'delete'; post: string }

export interface FeedEvents {
  /** Broadcast to every connected client (on every instance when Redis is configured). */
  publish(event: PostsEvent): void
}
