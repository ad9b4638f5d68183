import { useEffect, useState } from 'react'
import { imageSrc, request, type Post } from './api'
import { ErrorBanner, problemOf, type Problem } from './App'

export function SinglePost({
  id,
  token,
  onAuthError,
  onBack
}: {
  id: string
  token: string
  onAuthError: (e: unknown) => boolean
  onBack: () => void
}) {
  const [post, setPost] = useState<Post | null>(null)
  const [problem, setProblem] = useState<Problem | null>(null)
  useEffect(() => {
    request<{ post: Post }>(`/feed/post/${encodeURIComponent(id)}`, { token }).then(
      (r) => setPost(r.post),
      (error: unknown) => {
        if (!onAuthError(error)) setProblem(problemOf(error))
      }
    )
  }, [id, token, onAuthError])
  return (
    <article className="card single" data-testid="single-post">
      <button type="button" className="link" onClick={onBack}>
        ← Back to the feed
      </button>
      <ErrorBanner problem={problem} onClose={() => setProblem(null)} />
      {post && (
        <>
          <h1>{post.title}</h1>
          <p className="meta">
            Created by {post.creator.name} on {new Date(post.createdAt).toLocaleDateString('en-US')}
          </p>
          <img src={imageSrc(post.imageUrl)} alt={post.title} className="full" />
          <p className="content">{post.content}</p>
        </>
      )}
    </article>
  )
}
