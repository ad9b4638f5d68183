import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { io } from 'socket.io-client'
import { API_URL, imageSrc, request, type Post } from './api'
import { ErrorBanner, problemOf, type Problem } from './App'
import { PostEditor } from './PostEditor'
import type { Session } from './session'

export const PER_PAGE = 2

type PostsEvent = { action: 'create' | 'update'; post: Post } | { action: 'delete'; post: string }

interface Props {
  session: Session
  onAuthError: (error: unknown) => boolean
  onOpen: (id: string) => void
}

export function Feed({ session, onAuthError, onOpen }: Props) {
  const { token } = session
  const [posts, setPosts] = useState<Post[]>([])
  const [totalItems, setTotalItems] = useState(0)
  const [page, setPage] = useState(1)
  const [loading, setLoading] = useState(true)
  const [problem, setProblem] = useState<Problem | null>(null)
  const [editing, setEditing] = useState<{ post?: Post } | null>(null)
  const [status, setStatus] = useState('')
  const [live, setLive] = useState(false)
  const pageRef = useRef(page)
  pageRef.current = page
  const postsRef = useRef(posts)
  postsRef.current = posts

  const fail = useCallback(
    (error: unknown) => {
      if (!onAuthError(error)) setProblem(problemOf(error))
    },
    [onAuthError]
  )

  const load = useCallback(
    async (wanted: number) => {
      setLoading(true)
      try {
        const result = await request<{ posts: Post[]; totalItems: number }>(`/feed/posts?page=${wanted}`, { token })
        const lastPage = Math.max(1, Math.ceil(result.totalItems / PER_PAGE))
        // The page emptied under us (deletes): show the last page that has posts.
        if (result.posts.length === 0 && wanted > lastPage) {
          setPage(lastPage)
          return
        }
        setPosts(result.posts)
        setTotalItems(result.totalItems)
      } catch (error) {
        fail(error)
      } finally {
        setLoading(false)
      }
    },
    [token, fail]
  )

  useEffect(() => {
    void load(page)
  }, [page, load])

  useEffect(() => {
    request<{ status: string }>('/auth/status', { token }).then((r) => setStatus(r.status), fail)
  }, [token, fail])

  // Live updates: new posts appear on page 1, edits replace in place, deletes reload the page.
  useEffect(() => {
    const socket = io(API_URL, { auth: { token }, transports: ['websocket', 'polling'] })
    socket.on('connect', () => setLive(true))
    socket.on('disconnect', () => setLive(false))
    socket.on('posts', (event: PostsEvent) => {
      if (event.action === 'create') {
        const post = event.post
        // Already shown (our own post, reloaded after saving): nothing to add or count.
        if (postsRef.current.some((p) => p._id === post._id)) return
        setTotalItems((n) => n + 1)
        if (pageRef.current === 1) setPosts((current) => [post, ...current.filter((p) => p._id !== post._id)].slice(0, PER_PAGE))
      } else if (event.action === 'update') {
        const post = event.post
        setPosts((current) => current.map((p) => (p._id === post._id ? post : p)))
      } else {
        void load(pageRef.current)
      }
    })
    return () => {
      socket.close()
    }
  }, [token, load])

  const saveStatus = async (event: FormEvent) => {
    event.preventDefault()
    try {
      await request('/auth/status', { method: 'PATCH', token, json: { status } })
      setProblem({ message: 'Status updated.', fields: [] })
    } catch (error) {
      fail(error)
    }
  }

  const remove = async (post: Post) => {
    if (!window.confirm(`Delete "${post.title}"?`)) return
    try {
      await request(`/feed/post/${encodeURIComponent(post._id)}`, { method: 'DELETE', token })
      await load(pageRef.current)
    } catch (error) {
      fail(error)
    }
  }

  const lastPage = Math.max(1, Math.ceil(totalItems / PER_PAGE))
  return (
    <section className="feed">
      <form className="status card" onSubmit={(e) => void saveStatus(e)}>
        <input
          aria-label="Your status"
          placeholder="Your status"
          value={status}
          onChange={(e) => setStatus(e.target.value)}
          data-testid="status-input"
        />
        <button type="submit" className="secondary">
          Update status
        </button>
      </form>
      <div className="toolbar">
        <button type="button" onClick={() => setEditing({})} data-testid="new-post">
          New post
        </button>
        <span className={live ? 'live on' : 'live'} data-testid="live">
          {live ? '● live' : '○ offline'}
        </span>
      </div>
      <ErrorBanner problem={problem} onClose={() => setProblem(null)} />
      {editing && (
        <PostEditor
          token={token}
          post={editing.post}
          onAuthError={onAuthError}
          onCancel={() => setEditing(null)}
          onDone={() => {
            setEditing(null)
            void load(pageRef.current)
          }}
        />
      )}
      {loading && posts.length === 0 ? <p className="muted">Loading posts…</p> : null}
      {!loading && posts.length === 0 ? (
        <p className="muted" data-testid="empty">
          No posts yet.
        </p>
      ) : null}
      <ul className="posts" data-testid="posts">
        {posts.map((post) => (
          <li key={post._id} className="card post" data-testid="post" data-post-id={post._id}>
            <img src={imageSrc(post.imageUrl)} alt="" className="thumb" />
            <div className="body">
              <p className="meta">
                Posted by {post.creator.name} on {new Date(post.createdAt).toLocaleDateString('en-US')}
              </p>
              <h2 data-testid="post-title">{post.title}</h2>
              <div className="actions">
                <button type="button" className="secondary" onClick={() => onOpen(post._id)}>
                  View
                </button>
                {post.creator._id === session.userId && (
                  <>
                    <button type="button" className="secondary" onClick={() => setEditing({ post })} data-testid="edit-post">
                      Edit
                    </button>
                    <button type="button" className="danger" onClick={() => void remove(post)} data-testid="delete-post">
                      Delete
                    </button>
                  </>
                )}
              </div>
            </div>
          </li>
        ))}
      </ul>
      <nav className="pager">
        <button type="button" className="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)} data-testid="newer">
          Newer
        </button>
        <span data-testid="page">
          Page {page} of {lastPage}
        </span>
        <button type="button" className="secondary" disabled={page >= lastPage} onClick={() => setPage(page + 1)} data-testid="older">
          Older
        </button>
      </nav>
    </section>
  )
}
