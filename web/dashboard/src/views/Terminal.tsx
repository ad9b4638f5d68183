import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import createClient from 'openapi-fetch'
import { lazy, Suspense, useMemo, useState } from 'react'
import { api, ApiError, unwrap } from '../api/client'
import type { paths } from '../api/schema'
import { Empty, ErrorBox, Loading, Section, StatusPill } from '../ui'

const TerminalScreen = lazy(() => import('./TerminalScreen'))

/** The session routes take only the terminal token (never the API token), so they get a client of their own. */
function sessionsClient(token: string) {
  return createClient<paths>({ baseUrl: window.location.origin, headers: { authorization: `Bearer ${token}` } })
}

/** Terminal: PTY sessions of the project (list, open, close) and an xterm.js screen over /api/terminal/ws. */
export function TerminalView() {
  const queryClient = useQueryClient()
  const [open, setOpen] = useState<string | null>(null)
  const token = useQuery({
    queryKey: ['terminal', 'token'],
    queryFn: async () => unwrap(await api.GET('/api/terminal/token')).token,
    staleTime: Infinity,
    retry: false
  })
  const client = useMemo(() => (token.data ? sessionsClient(token.data) : null), [token.data])
  const sessions = useQuery({
    queryKey: ['terminal', 'sessions'],
    enabled: client !== null,
    queryFn: async () => unwrap(await client!.GET('/api/terminal/sessions'))
  })
  const create = useMutation({
    mutationFn: async () => unwrap(await client!.POST('/api/terminal/sessions', { body: { kind: 'shell', cols: 100, rows: 24 } })),
    onSuccess: (session) => {
      setOpen(session.id)
      void queryClient.invalidateQueries({ queryKey: ['terminal', 'sessions'] })
    }
  })
  const remove = useMutation({
    mutationFn: async (id: string) => unwrap(await client!.DELETE('/api/terminal/sessions/{id}', { params: { path: { id } } })),
    onSuccess: (_ok, id) => {
      if (open === id) setOpen(null)
      void queryClient.invalidateQueries({ queryKey: ['terminal', 'sessions'] })
    }
  })

  if (token.isPending) return <Loading />
  if (token.error) {
    const status = token.error instanceof ApiError ? token.error.status : 0
    return (
      <Section title="Terminal">
        {status === 403 ? (
          <Empty>The terminal is handed out to pages opened on this machine only (loopback).</Empty>
        ) : status === 404 ? (
          <Empty>The terminal is disabled (terminal.enabled in .quartet/config.json).</Empty>
        ) : (
          <ErrorBox error={token.error} />
        )}
      </Section>
    )
  }
  const list = sessions.data ?? []
  return (
    <>
      <Section
        title="Terminal sessions"
        actions={
          <button type="button" onClick={() => create.mutate()} disabled={create.isPending}>
            New shell
          </button>
        }
      >
        {create.error ? <ErrorBox error={create.error} /> : null}
        {remove.error ? <ErrorBox error={remove.error} /> : null}
        {sessions.isPending ? (
          <Loading />
        ) : sessions.error ? (
          <ErrorBox error={sessions.error} />
        ) : list.length === 0 ? (
          <Empty>No session. Open a shell: it runs in the project and keeps running when this page closes.</Empty>
        ) : (
          <ul className="files" data-testid="terminal-sessions">
            {list.map((s) => (
              <li key={s.id} data-session={s.id}>
                <span className="mono">{s.id}</span> {s.kind}
                {s.tool ? ` (${s.tool})` : ''} · pid {s.pid} <StatusPill status={s.status} />{' '}
                <button type="button" onClick={() => setOpen(s.id)} disabled={open === s.id || s.status !== 'running'}>
                  Open
                </button>{' '}
                <button type="button" onClick={() => remove.mutate(s.id)}>
                  Close
                </button>
              </li>
            ))}
          </ul>
        )}
      </Section>
      {open && token.data ? (
        <Section title={`Session ${open}`}>
          <Suspense fallback={<Loading />}>
            <TerminalScreen key={open} sessionId={open} token={token.data} />
          </Suspense>
        </Section>
      ) : null}
    </>
  )
}
