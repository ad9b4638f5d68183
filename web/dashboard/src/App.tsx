import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState, type FormEvent } from 'react'
import { ApiError } from './api/client'
import { LiveProvider, useLive } from './api/live'
import { useApprovals, useStatus } from './api/queries'
import { currentToken, forgetToken, injectedToken, rememberToken } from './api/token'
import { Approvals } from './views/Approvals'
import { Automation } from './views/Automation'
import { Chat } from './views/Chat'
import { Enterprise } from './views/Enterprise'
import { Memory } from './views/Memory'
import { NeedsYou } from './views/NeedsYou'
import { Flows } from './views/Flows'
import { Review } from './views/Slots'
import { Sprint } from './views/Sprint'
import { TaskView } from './views/Task'
import { TerminalView } from './views/Terminal'

/** Every view, in menu order (the cross-verify verdict is on the Sprint and Task views). */
const VIEWS = [
  { path: 'needs-you', label: 'Needs you' },
  { path: 'sprint', label: 'Sprint' },
  { path: 'approvals', label: 'Approvals' },
  { path: 'review', label: 'Review & merge' },
  { path: 'flows', label: 'Run flows' },
  { path: 'memory', label: 'Memory' },
  { path: 'terminal', label: 'Terminal' },
  { path: 'chat', label: 'Chat' },
  { path: 'enterprise', label: 'Enterprise' },
  { path: 'automation', label: 'Automation' }
] as const

function useHashRoute(): string[] {
  const read = () => window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent)
  const [route, setRoute] = useState(read)
  useEffect(() => {
    const onChange = () => setRoute(read())
    window.addEventListener('hashchange', onChange)
    return () => window.removeEventListener('hashchange', onChange)
  }, [])
  return route
}

function TokenPrompt({ rejected }: { rejected: boolean }) {
  const queryClient = useQueryClient()
  const [value, setValue] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!value.trim()) return
    rememberToken(value)
    // The stream and every query start over with the token.
    window.location.reload()
    void queryClient.invalidateQueries()
  }
  return (
    <main className="prompt">
      <h1>Quartet dashboard</h1>
      <p>
        {rejected ? 'That token was refused. ' : ''}This page was not opened from this machine, so it needs the orchestrator&apos;s API
        token. It is in <code>.quartet/runtime/api-token</code> of the project (or <code>QUARTET_API_TOKEN</code>).
      </p>
      <form onSubmit={submit}>
        <label htmlFor="token">API token</label>
        <input id="token" type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} autoFocus />
        <button type="submit">Open dashboard</button>
      </form>
    </main>
  )
}

const STATE_TEXT = { connecting: 'connecting…', open: 'live', reconnecting: 'reconnecting…', unauthorized: 'refused', closed: 'closed' }

function Shell({ route }: { route: string[] }) {
  const live = useLive()
  const status = useStatus()
  const approvals = useApprovals()
  const [view = 'needs-you', arg] = route
  const pending = approvals.data?.pending.length ?? 0
  const title = status.data?.sprint.title ?? status.data?.lastSprint?.title
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <strong className="brand">Quartet</strong>
        <span className="muted sprint-title">{title ? `· ${title}` : ''}</span>
        <span className={`live live-${live.state}`} role="status" aria-live="polite" data-testid="live-state">
          {STATE_TEXT[live.state]}
        </span>
      </header>
      <nav aria-label="Views">
        <ul>
          {VIEWS.map((v) => (
            <li key={v.path}>
              <a href={`#/${v.path}`} aria-current={view === v.path || (view === 'task' && v.path === 'sprint') ? 'page' : undefined}>
                {v.label}
                {v.path === 'approvals' && pending > 0 ? <span className="badge">{pending}</span> : null}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {view === 'needs-you' && <NeedsYou />}
        {view === 'sprint' && <Sprint />}
        {view === 'task' && arg && <TaskView id={arg} />}
        {view === 'approvals' && <Approvals />}
        {view === 'review' && <Review />}
        {view === 'flows' && <Flows />}
        {view === 'memory' && <Memory />}
        {view === 'terminal' && <TerminalView />}
        {view === 'chat' && <Chat />}
        {view === 'enterprise' && <Enterprise />}
        {view === 'automation' && <Automation />}
        {!VIEWS.some((v) => v.path === view) && view !== 'task' && <p>No such view. Pick one from the menu.</p>}
      </main>
    </div>
  )
}

export function App() {
  const route = useHashRoute()
  const status = useStatus()
  const refused = status.error instanceof ApiError && (status.error.status === 401 || status.error.status === 403)
  if (refused && !injectedToken()) {
    const hadToken = currentToken() !== null
    if (hadToken) forgetToken()
    return <TokenPrompt rejected={hadToken} />
  }
  return (
    <LiveProvider>
      <Shell route={route} />
    </LiveProvider>
  )
}
