import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, ApiError, unwrap } from '../api/client'
import { Empty, ErrorBox, Loading, Section } from '../ui'

// These namespaces publish no events on /api/events: a slow poll while the view is open (9 reads per 30 s),
// besides the refresh after each decision made here and on every event of the run.
const POLL_MS = 30_000
const useRead = <T,>(key: string, read: () => Promise<T>) =>
  useQuery({ queryKey: ['automation', key], queryFn: read, retry: false, refetchInterval: POLL_MS })

/** A decision button pair; a refusal (mutations off, expired, another tenant's) is shown where it was asked. */
function Decide({ label, run }: { label: [string, string]; run: (choice: 0 | 1) => Promise<unknown> }) {
  const queryClient = useQueryClient()
  const [refusal, setRefusal] = useState<string | null>(null)
  const decide = useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['automation'] }),
    onError: (error) => setRefusal(error instanceof ApiError ? error.message : String(error))
  })
  return (
    <span className="actions">
      <button type="button" disabled={decide.isPending} onClick={() => decide.mutate(0)}>
        {label[0]}
      </button>{' '}
      <button type="button" disabled={decide.isPending} onClick={() => decide.mutate(1)}>
        {label[1]}
      </button>
      {refusal ? (
        <span className="error" role="alert">
          {' '}
          {refusal}
        </span>
      ) : null}
    </span>
  )
}

function backlogText(b: { total: number; pending: number; running: number; failed: number }): string {
  return `backlog ${b.total} (${b.pending} pending, ${b.running} running, ${b.failed} failed)`
}

function Autonomous() {
  const status = useRead('autonomous-status', async () => unwrap(await api.GET('/api/autonomous/status')))
  const pending = useRead('autonomous-pending', async () => unwrap(await api.GET('/api/autonomous/pending')))
  const backlog = useRead('autonomous-backlog', async () => unwrap(await api.GET('/api/autonomous/backlog')))
  const decide = (id: string) => async (choice: 0 | 1) =>
    choice === 0
      ? unwrap(await api.POST('/api/autonomous/approve/{id}', { params: { path: { id } } }))
      : unwrap(await api.POST('/api/autonomous/reject/{id}', { params: { path: { id } } }))
  return (
    <Section title="Autonomous">
      {status.isPending ? (
        <Loading />
      ) : status.error ? (
        <ErrorBox error={status.error} />
      ) : (
        <p data-testid="autonomous-status">
          {status.data.enabled ? 'On' : 'Off (autonomous.enabled in .quartet/config.json)'} · policy {status.data.policy} ·{' '}
          {backlogText(status.data.backlogSummary)} · {status.data.pendingCount} waiting for you
        </p>
      )}
      {status.data && status.data.schedules.length > 0 ? (
        <ul className="files" data-testid="schedules">
          {status.data.schedules.map((s) => (
            <li key={s.id}>
              <span className="mono">{s.cron}</span> ({s.timezone}, {s.concurrency}) · next {s.nextRunAt ?? '–'}
              {s.error ? <span className="error"> · {s.error}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <h3>Waiting for a decision</h3>
      {pending.isPending ? (
        <Loading />
      ) : pending.error ? (
        <ErrorBox error={pending.error} />
      ) : pending.data.length === 0 ? (
        <Empty>No trigger waits for you.</Empty>
      ) : (
        <ul className="files" data-testid="autonomous-pending">
          {pending.data.map((p) => (
            <li key={p.triggerId}>
              <span className="mono">{p.triggerId}</span> {p.action} · by {p.requestedBy} · expires {p.expiresAt}{' '}
              <Decide label={['Approve', 'Reject']} run={decide(p.triggerId)} />
            </li>
          ))}
        </ul>
      )}
      <h3>Backlog</h3>
      {backlog.isPending ? (
        <Loading />
      ) : backlog.error ? (
        <ErrorBox error={backlog.error} />
      ) : backlog.data.length === 0 ? (
        <Empty>The backlog is empty: nothing is processed and no provider is called.</Empty>
      ) : (
        <ul className="files" data-testid="backlog">
          {backlog.data.slice(0, 100).map((b) => (
            <li key={b.id}>
              <strong>{b.title}</strong> <span className="muted">{b.kind}</span> · {b.status}
              {b.lastRun ? ` · last run ${b.lastRun.ok ? 'ok' : `failed: ${b.lastRun.reason ?? ''}`}` : ''}
            </li>
          ))}
        </ul>
      )}
    </Section>
  )
}

function Nervous() {
  const status = useRead('nervous-status', async () => unwrap(await api.GET('/api/nervous/status')))
  const events = useRead('nervous-pending', async () => unwrap(await api.GET('/api/nervous/pending')))
  const recommendations = useRead('nervous-recommendations', async () => unwrap(await api.GET('/api/nervous/recommendations')))
  const decide = (id: string) => async (choice: 0 | 1) =>
    choice === 0
      ? unwrap(await api.POST('/api/nervous/accept/{id}', { params: { path: { id } } }))
      : unwrap(await api.POST('/api/nervous/reject/{id}', { params: { path: { id } } }))
  return (
    <Section title="Nervous system">
      {status.isPending ? (
        <Loading />
      ) : status.error ? (
        <ErrorBox error={status.error} />
      ) : (
        <p data-testid="nervous-status">
          {status.data.enabled ? 'On' : 'Off'} · mode {status.data.mode} · panic guard {status.data.panicGuard ? 'on' : 'off'}
          {` · detectors: ${status.data.detectors.join(', ') || '–'}`}
        </p>
      )}
      <h3>Detections waiting for you</h3>
      {events.isPending ? (
        <Loading />
      ) : events.error ? (
        <ErrorBox error={events.error} />
      ) : events.data.length === 0 ? (
        <Empty>No detection is pending.</Empty>
      ) : (
        <ul className="files" data-testid="nervous-pending">
          {events.data.map((e) => (
            <li key={e.id} data-risk={e.risk}>
              <strong>{e.detector}</strong> on <span className="mono">{e.subject}</span> ({e.risk} risk): {e.description}{' '}
              <Decide label={['Accept', 'Reject']} run={decide(e.id)} />
            </li>
          ))}
        </ul>
      )}
      <h3>Recommendations</h3>
      {recommendations.isPending ? (
        <Loading />
      ) : recommendations.error ? (
        <ErrorBox error={recommendations.error} />
      ) : recommendations.data.length === 0 ? (
        <Empty>No recommendation.</Empty>
      ) : (
        <ul className="files" data-testid="recommendations">
          {recommendations.data.slice(0, 100).map((r) => (
            <li key={r.id}>
              {r.action}
              {r.target ? ` ${r.target}` : ''} ({r.risk}) · {r.status}
              {r.outcome ? ` · ${r.outcome}` : ''}: {r.description}
            </li>
          ))}
        </ul>
      )}
    </Section>
  )
}

function Evolution() {
  const metrics = useRead('prompt-metrics', async () => unwrap(await api.GET('/api/evolution/prompt-metrics')))
  const retired = useRead('retirement', async () => unwrap(await api.GET('/api/evolution/retirement')))
  const genealogy = useRead('genealogy', async () => unwrap(await api.GET('/api/evolution/genealogy')))
  const percent = (rate: number) => `${Math.round(rate * 100)} %`
  return (
    <Section title="Evolution">
      <h3>Agents and prompts</h3>
      {metrics.isPending ? (
        <Loading />
      ) : metrics.error ? (
        <ErrorBox error={metrics.error} />
      ) : metrics.data.length === 0 ? (
        <Empty>No recorded run yet.</Empty>
      ) : (
        <table data-testid="prompt-metrics">
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">Prompt version</th>
              <th scope="col">Success</th>
              <th scope="col">Trend</th>
            </tr>
          </thead>
          <tbody>
            {metrics.data.map((m) => (
              <tr key={m.agentId}>
                <td className="mono">{m.agentId}</td>
                <td className="mono">
                  {m.currentVersion} ({m.totalVersions})
                </td>
                <td>{percent(m.currentSuccessRate)}</td>
                <td>{m.trend}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Retired</h3>
      {retired.isPending ? (
        <Loading />
      ) : retired.error ? (
        <ErrorBox error={retired.error} />
      ) : retired.data.length === 0 ? (
        <Empty>No agent is retired.</Empty>
      ) : (
        <ul className="files" data-testid="retired">
          {retired.data.map((r) => (
            <li key={r.id}>
              <span className="mono">{r.id}</span>: {r.reason} ({percent(r.stats.successRate)} of {r.stats.totalUses})
            </li>
          ))}
        </ul>
      )}
      <h3>Lineage</h3>
      {genealogy.isPending ? (
        <Loading />
      ) : genealogy.error ? (
        <ErrorBox error={genealogy.error} />
      ) : Object.keys(genealogy.data.nodes).length === 0 ? (
        <Empty>No agent configuration recorded yet.</Empty>
      ) : (
        <ul className="files" data-testid="genealogy">
          {Object.values(genealogy.data.nodes).map((n) => {
            const parent = genealogy.data.edges.find((e) => e.child === n.agentId)?.parent
            return (
              <li key={n.agentId}>
                <span className="mono">{n.agentId}</span> {n.agent}
                {n.model ? ` (${n.model})` : ''} · {n.uses} uses{parent ? ` · from ${parent}` : ''}
              </li>
            )
          })}
        </ul>
      )}
    </Section>
  )
}

/** The autonomous, nervous and evolution namespaces: what runs by itself, what the detectors saw, how agents fare. */
export function Automation() {
  return (
    <>
      <Autonomous />
      <Nervous />
      <Evolution />
    </>
  )
}
