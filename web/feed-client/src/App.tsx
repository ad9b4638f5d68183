import { useCallback, useEffect, useState } from 'react'
import { ApiError, request } from './api'
import { LoginForm, SignupForm } from './AuthForms'
import { Feed } from './Feed'
import { SinglePost } from './SinglePost'
import { clearSession, loadSession, saveSession, type Session } from './session'

/** A minimal router over the History API: /, /login, /signup, /post/:id. */
function usePath(): [string, (to: string) => void] {
  const [path, setPath] = useState(window.location.pathname)
  useEffect(() => {
    const onPop = () => setPath(window.location.pathname)
    window.addEventListener('popstate', onPop)
    return () => window.removeEventListener('popstate', onPop)
  }, [])
  const navigate = useCallback((to: string) => {
    if (to !== window.location.pathname) window.history.pushState(null, '', to)
    setPath(to)
  }, [])
  return [path, navigate]
}

export interface Problem {
  message: string
  fields: string[]
}

export function problemOf(error: unknown): Problem {
  if (error instanceof ApiError) return { message: error.message, fields: error.fields }
  return { message: error instanceof Error ? error.message : String(error), fields: [] }
}

export function ErrorBanner({ problem, onClose }: { problem: Problem | null; onClose: () => void }) {
  if (!problem) return null
  return (
    <div className="error" role="alert" data-testid="error">
      <div>
        <strong>{problem.message}</strong>
        {problem.fields.length > 0 && (
          <ul>
            {problem.fields.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        )}
      </div>
      <button type="button" className="link" onClick={onClose} aria-label="Dismiss">
        ×
      </button>
    </div>
  )
}

export function App() {
  const [path, navigate] = usePath()
  const [session, setSession] = useState<Session | null>(() => loadSession())
  const [notice, setNotice] = useState<Problem | null>(null)

  const logout = useCallback(
    (reason?: string) => {
      clearSession()
      setSession(null)
      if (reason) setNotice({ message: reason, fields: [] })
      navigate('/login')
    },
    [navigate]
  )

  // Auto-logout when the token expires.
  useEffect(() => {
    if (!session) return
    const timer = window.setTimeout(
      () => logout('Your session has expired; please log in again.'),
      Math.max(0, session.expiresAt - Date.now())
    )
    return () => window.clearTimeout(timer)
  }, [session, logout])

  const onLogin = async (email: string, password: string) => {
    const result = await request<{ token: string; userId: string }>('/auth/login', { method: 'POST', json: { email, password } })
    setSession(saveSession(result.token, result.userId))
    setNotice(null)
    navigate('/')
  }
  const onSignup = async (email: string, name: string, password: string) => {
    await request('/auth/signup', { method: 'PUT', json: { email, name, password } })
    setNotice({ message: 'Account created. Log in to continue.', fields: [] })
    navigate('/login')
  }
  /** A 401 from any call means the token is no longer accepted. */
  const onAuthError = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 401) {
        logout('Your session is no longer valid; please log in again.')
        return true
      }
      return false
    },
    [logout]
  )

  const postMatch = /^\/post\/([^/]+)$/.exec(path)
  let page
  if (!session) {
    page = path === '/signup' ? <SignupForm onSignup={onSignup} /> : <LoginForm onLogin={onLogin} />
  } else if (postMatch?.[1]) {
    page = <SinglePost id={decodeURIComponent(postMatch[1])} token={session.token} onAuthError={onAuthError} onBack={() => navigate('/')} />
  } else {
    page = <Feed session={session} onAuthError={onAuthError} onOpen={(id) => navigate(`/post/${encodeURIComponent(id)}`)} />
  }

  const link = (to: string, label: string) => (
    <a
      href={to}
      className={path === to ? 'active' : ''}
      onClick={(e) => {
        e.preventDefault()
        navigate(to)
      }}
    >
      {label}
    </a>
  )
  return (
    <div className="app">
      <header className="header">
        <a
          href="/"
          className="brand"
          onClick={(e) => {
            e.preventDefault()
            navigate('/')
          }}
        >
          Quartet Feed
        </a>
        <nav>
          {session ? (
            <>
              {link('/', 'Feed')}
              <button type="button" className="link" data-testid="logout" onClick={() => logout()}>
                Logout
              </button>
            </>
          ) : (
            <>
              {link('/login', 'Login')}
              {link('/signup', 'Signup')}
            </>
          )}
        </nav>
      </header>
      <main className="main">
        <ErrorBanner problem={notice} onClose={() => setNotice(null)} />
        {page}
      </main>
    </div>
  )
}
