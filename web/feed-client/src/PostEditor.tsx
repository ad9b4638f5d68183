import { useEffect, useState, type FormEvent } from 'react'
import { imageSrc, request, type Post } from './api'
import { ErrorBanner, problemOf, type Problem } from './App'

interface Props {
  token: string
  /** The post being edited, or undefined for a new post. */
  post?: Post | undefined
  onDone: (post: Post) => void
  onCancel: () => void
  onAuthError: (error: unknown) => boolean
}

/** Create or edit a post: title, an image (PNG/JPEG, previewed before upload) and content. */
export function PostEditor({ token, post, onDone, onCancel, onAuthError }: Props) {
  const [title, setTitle] = useState(post?.title ?? '')
  const [content, setContent] = useState(post?.content ?? '')
  const [file, setFile] = useState<File | null>(null)
  const [preview, setPreview] = useState<string | null>(post ? imageSrc(post.imageUrl) : null)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<Problem | null>(null)

  useEffect(() => {
    if (!file) return
    const url = URL.createObjectURL(file)
    setPreview(url)
    return () => URL.revokeObjectURL(url)
  }, [file])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setProblem(null)
    const form = new FormData()
    form.append('title', title)
    form.append('content', content)
    // A new file, or (when editing) the path of the current image, as the original client sends.
    if (file) form.append('image', file)
    else if (post) form.append('image', post.imageUrl)
    try {
      const result = await request<{ post: Post }>(post ? `/feed/post/${encodeURIComponent(post._id)}` : '/feed/post', {
        method: post ? 'PUT' : 'POST',
        token,
        form
      })
      onDone(result.post)
    } catch (error) {
      if (!onAuthError(error)) setProblem(problemOf(error))
      setBusy(false)
    }
  }

  return (
    <div className="backdrop">
      <form className="card modal" onSubmit={(e) => void submit(e)} data-testid="post-editor">
        <h2>{post ? 'Edit post' : 'New post'}</h2>
        <ErrorBanner problem={problem} onClose={() => setProblem(null)} />
        <label>
          Title
          <input name="title" value={title} onChange={(e) => setTitle(e.target.value)} />
        </label>
        <label>
          Image (PNG or JPEG){post ? ' — leave empty to keep the current one' : ''}
          <input type="file" name="image" accept="image/png,image/jpeg" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <div className="preview">
          {preview ? <img src={preview} alt="Preview" data-testid="preview" /> : <span>Please choose an image.</span>}
        </div>
        <label>
          Content
          <textarea name="content" rows={5} value={content} onChange={(e) => setContent(e.target.value)} />
        </label>
        <div className="actions">
          <button type="button" className="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="submit" disabled={busy} data-testid="save-post">
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </div>
  )
}
