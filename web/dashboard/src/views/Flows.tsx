import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { api, ApiError, unwrap } from '../api/client'
import { useOptional } from '../api/queries'
import { openStream, type StreamState } from '../api/sse'
import type { paths } from '../api/schema'
import { Empty, ErrorBox, Loading, Section, StatusPill } from '../ui'

type FlowList = paths['/api/run-flow/list']['get']['responses'][200]['content']['application/json']

interface FlowEventFrame {
  sequence: number
  type: string
  timestamp: string
  data: Record<string, unknown>
}

/** Control answers of a server with mutations off (403) or without the flag (404) say so in words. */
function Refusal({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.status === 403)
    return (
      <p role="note">
        Control over the API is off ({error.message}). Use the terminal: <code>quartet run</code>
      </p>
    )
  return <ErrorBox error={error} />
}

/** Guided run flows: propose → preview and diff → approve (the exact revision + digest) → start → live events. */
export function Flows() {
  const flows = useOptional('/api/run-flow/list')
  const [selected, setSelected] = useState<string | null>(null)
  const [intent, setIntent] = useState('')
  const queryClient = useQueryClient()
  const propose = useMutation({
    mutationFn: async (intentSummary: string) => unwrap(await api.POST('/api/run-flow/propose', { body: { intentSummary } })),
    onSuccess: (context) => {
      setIntent('')
      setSelected(context.flowId)
      void queryClient.invalidateQueries({ queryKey: ['optional', '/api/run-flow/list'] })
    }
  })
  if (flows.isPending) return <Loading />
  if (flows.error) return <ErrorBox error={flows.error} />
  if (flows.data === null)
    return (
      <Section title="Run flows">
        <Empty>This server does not serve run flows (GET /api/run-flow/list answers 404: the terminal.run_flow_v2 flag is off).</Empty>
      </Section>
    )
  const list = (flows.data as FlowList).flows
  return (
    <>
      <Section title="Propose a run">
        <form
          className="propose"
          onSubmit={(e) => {
            e.preventDefault()
            if (intent.trim() !== '') propose.mutate(intent)
          }}
        >
          <label>
            What should the agents do?
            <textarea name="intent" rows={3} value={intent} onChange={(e) => setIntent(e.target.value)} />
          </label>
          <button type="submit" disabled={propose.isPending || intent.trim() === ''}>
            Propose
          </button>
        </form>
        {propose.error ? <Refusal error={propose.error} /> : null}
      </Section>
      <Section title="Run flows">
        {list.length === 0 ? (
          <Empty>No run flow yet.</Empty>
        ) : (
          <ul className="files" data-testid="flows">
            {list.map((f) => (
              <li key={f.flowId}>
                <button type="button" className="link" onClick={() => setSelected(f.flowId)} aria-pressed={selected === f.flowId}>
                  <span className="mono">{f.flowId}</span>
                </button>{' '}
                <StatusPill status={f.state} /> {f.intentSummary.split('\n')[0]} <span className="muted">rev {f.revision}</span>
              </li>
            ))}
          </ul>
        )}
      </Section>
      {selected ? <FlowDetail key={selected} flowId={selected} /> : null}
    </>
  )
}

function FlowDetail({ flowId }: { flowId: string }) {
  const queryClient = useQueryClient()
  const params = { params: { path: { flowId } } }
  const flow = useQuery({ queryKey: ['flow', flowId], queryFn: async () => unwrap(await api.GET('/api/run-flow/{flowId}', params)) })
  const preview = useQuery({
    queryKey: ['flow', flowId, 'preview'],
    queryFn: async () => unwrap(await api.GET('/api/run-flow/{flowId}/preview', params))
  })
  const diff = useQuery({
    queryKey: ['flow', flowId, 'diff'],
    queryFn: async () => unwrap(await api.GET('/api/run-flow/{flowId}/diff', params))
  })
  const [events, setEvents] = useState<FlowEventFrame[]>([])
  const [stream, setStream] = useState<StreamState>('connecting')

  useEffect(() => {
    const seen = new Set<number>()
    const handle = openStream({
      url: `/api/run-flow/${encodeURIComponent(flowId)}/events`,
      resumable: true,
      onState: setStream,
      onFrame: (frame) => {
        let event: FlowEventFrame
        try {
          event = JSON.parse(frame.data) as FlowEventFrame
        } catch {
          return // a heartbeat or a frame of another shape
        }
        if (typeof event.sequence !== 'number' || seen.has(event.sequence)) return
        seen.add(event.sequence)
        setEvents((list) => [...list, event])
        void queryClient.invalidateQueries({ queryKey: ['flow', flowId] })
        void queryClient.invalidateQueries({ queryKey: ['optional', '/api/run-flow/list'] })
      }
    })
    return () => handle.close()
  }, [flowId, queryClient])

  const act = useMutation({
    mutationFn: async (action: 'approve' | 'reject' | 'start' | 'cancel') => {
      if (action === 'start') return unwrap(await api.POST('/api/run-flow/{flowId}/start', { ...params }))
      if (action === 'cancel') return unwrap(await api.POST('/api/run-flow/{flowId}/cancel', { ...params, body: {} }))
      const p = preview.data
      if (!p) throw new Error('no preview to decide on')
      // The decision names exactly what was shown: a plan revised meanwhile is refused (409).
      return unwrap(
        await api.POST('/api/run-flow/{flowId}/decision', {
          ...params,
          body: { decision: action, revision: p.revision, planDigest: p.planDigest }
        })
      )
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ['flow', flowId] })
  })

  if (flow.isPending) return <Loading />
  if (flow.error) return <ErrorBox error={flow.error} />
  const state = flow.data.state
  const running = state === 'STARTING' || state === 'DETACHED_RUNNING'
  return (
    <Section
      title={`Flow ${flowId}`}
      actions={
        <>
          {state === 'AWAITING_APPROVAL' ? (
            <>
              <button type="button" onClick={() => act.mutate('approve')} disabled={act.isPending || !preview.data}>
                Approve
              </button>
              <button type="button" onClick={() => act.mutate('reject')} disabled={act.isPending || !preview.data}>
                Reject
              </button>
            </>
          ) : null}
          {state === 'APPROVED' ? (
            <button type="button" onClick={() => act.mutate('start')} disabled={act.isPending}>
              Start
            </button>
          ) : null}
          {running ? (
            <button type="button" onClick={() => act.mutate('cancel')} disabled={act.isPending}>
              Cancel
            </button>
          ) : null}
        </>
      }
    >
      <p>
        <StatusPill status={state} /> revision {flow.data.revision}
        {flow.data.sprintId ? <span className="mono"> · sprint {flow.data.sprintId}</span> : null}
        {flow.data.failureReason ? <span className="muted"> · {flow.data.failureReason}</span> : null}
      </p>
      {act.error ? <Refusal error={act.error} /> : null}
      <h3>Plan</h3>
      {preview.isPending ? (
        <Loading />
      ) : preview.error ? (
        <ErrorBox error={preview.error} />
      ) : (
        <>
          <p className="mono muted">digest {preview.data.planDigest}</p>
          <ol>
            {preview.data.taskSummaries.map((t, i) => (
              <li key={i}>
                <strong>{t.title}</strong> <span className="muted">{t.summary}</span>
              </li>
            ))}
          </ol>
          {preview.data.warnings.map((w) => (
            <p key={w} role="note">
              {w}
            </p>
          ))}
        </>
      )}
      <h3>Footprint</h3>
      {diff.isPending ? (
        <Loading />
      ) : diff.error ? (
        <ErrorBox error={diff.error} />
      ) : (
        <>
          <p className="muted">
            {diff.data.phase === 'planned' ? 'planned write scopes' : 'the actual diff of the flow’s branches'}:{' '}
            {`${diff.data.files.length} files, +${diff.data.insertions} −${diff.data.deletions}`}
          </p>
          <ul className="files">
            {diff.data.tasks.map((t) => (
              <li key={t.taskId}>
                <span className="mono">{t.taskId}</span> {t.title} <StatusPill status={t.status} />{' '}
                <span className="mono muted">{t.files.map((f) => f.path).join(', ')}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Events ({stream})</h3>
      {events.length === 0 ? (
        <Empty>No event yet.</Empty>
      ) : (
        <ol className="events" data-testid="flow-events">
          {events.map((e) => (
            <li key={e.sequence}>
              <span className="mono">{e.sequence}</span> <strong>{e.type}</strong>{' '}
              <span className="muted">{new Date(e.timestamp).toLocaleTimeString()}</span>
            </li>
          ))}
        </ol>
      )}
    </Section>
  )
}
