import { useLive } from '../api/live'
import { latestMergeStates, useApprovals, useMergeQueue, useStatus, useTasks } from '../api/queries'
import { Empty, ErrorBox, Loading, Section, useNow } from '../ui'

/** Agents beat every 15 s while they run; four missed beats and the agent counts as stalled. */
const STALE_MS = 60_000
const RUNNING = new Set(['CLAIMED', 'EXECUTING', 'TESTING'])

interface Item {
  key: string
  kind: string
  title: string
  detail: string
  action: React.ReactNode
}

/** The landing view: everything waiting for a person, each with what to do about it. */
export function NeedsYou() {
  const status = useStatus()
  const tasks = useTasks()
  const approvals = useApprovals()
  const merges = useMergeQueue()
  const live = useLive()
  const now = useNow(5000)
  if (status.isPending || tasks.isPending || approvals.isPending) return <Loading />
  const error = status.error ?? tasks.error ?? approvals.error
  if (error) return <ErrorBox error={error} />

  const items: Item[] = []
  for (const entry of approvals.data?.pending ?? []) {
    const r = entry.request
    items.push({
      key: `approval-${r.id}`,
      kind: 'Approval',
      title: r.summary,
      detail:
        `${r.risk} risk · ${r.taskId ? `task ${r.taskId} · ` : ''}` +
        `expires ${new Date(r.expiresAt).toLocaleTimeString()} (then ${r.defaultAction})`,
      action: <a href={`#/approvals`}>Decide</a>
    })
  }
  const s = status.data
  if (s && s.lifecycle === 'ORPHANED') {
    items.push({
      key: 'orphaned',
      kind: 'Stalled run',
      title: 'The run’s job process is gone; its unfinished tasks are orphaned',
      detail: 'Finished work stays on its branches.',
      action: <code>{s.recoveryCommand ?? 'quartet run --resume'}</code>
    })
  }
  // The last sign of life of each running task: its heartbeat in /api/status, or a newer event of it.
  // Silence makes no event, so staleness is judged here as time passes, without asking the server.
  const lastSign = new Map<string, number>()
  for (const agent of s?.agents ?? []) if (agent.timestamp) lastSign.set(agent.taskId, Date.parse(agent.timestamp))
  for (const event of live.events) {
    if (!event.taskId) continue
    const at = Date.parse(event.createdAt)
    if (at > (lastSign.get(event.taskId) ?? 0)) lastSign.set(event.taskId, at)
  }
  for (const task of tasks.data ?? []) {
    if (!RUNNING.has(task.status)) continue
    const last = lastSign.get(task.id) ?? (task.startedAt ? Date.parse(task.startedAt) : now)
    const agent = s?.agents.find((a) => a.taskId === task.id)
    if (now - last < STALE_MS && !agent?.stale) continue
    items.push({
      key: `stale-${task.id}`,
      kind: 'Stalled agent',
      title: `${task.id} ${task.title}`,
      detail: `no heartbeat for ${Math.round((now - last) / 1000)} s · last: ${agent?.currentAction || '–'}`,
      action: <a href={`#/task/${encodeURIComponent(task.id)}`}>Open log</a>
    })
  }
  for (const task of tasks.data ?? []) {
    if (task.status !== 'NO_GO' && task.status !== 'BLOCKED') continue
    items.push({
      key: `failed-${task.id}`,
      kind: task.status === 'NO_GO' ? 'Failed' : 'Blocked',
      title: `${task.id} ${task.title}`,
      detail: (task.reason ?? '').split('\n')[0] ?? '',
      action: <a href={`#/task/${encodeURIComponent(task.id)}`}>See why</a>
    })
  }
  // A DONE task whose claim a verifier of another provider refuted (or could not judge) is for a person to review.
  for (const task of tasks.data ?? []) {
    const verdict = task.xverify
    if (task.status !== 'DONE' || !verdict || verdict.closed || verdict.verdict === 'SKIPPED' || verdict.verdict === 'CONFIRMED') continue
    items.push({
      key: `xverify-${task.id}`,
      kind: `Cross-verify ${verdict.verdict}`,
      title: `${task.id} ${task.title}`,
      detail: verdict.reason.split('\n')[0] ?? '',
      action: <a href={`#/task/${encodeURIComponent(task.id)}`}>Review</a>
    })
  }
  for (const alert of s?.alerts ?? []) {
    items.push({
      key: `alert-${alert.code}-${alert.timestamp}`,
      kind: `Alert (${alert.level})`,
      title: alert.message,
      detail: alert.source,
      action: null
    })
  }
  // An agent resolved the conflict on the task's branch: nothing lands until a person has read the diff and merges again.
  for (const r of latestMergeStates(merges.data).filter((i) => i.status === 'RESOLVED')) {
    items.push({
      key: `resolved-${r.taskId}`,
      kind: 'Resolved by agent',
      title: `${r.taskId} into ${r.target}`,
      detail: `conflicts in ${r.files.join(', ') || '-'} resolved on its branch, not landed: review the diff, then Start merge`,
      action: <a href={`#/task/${encodeURIComponent(r.taskId)}`}>Review</a>
    })
  }
  for (const c of latestMergeStates(merges.data).filter((i) => i.status === 'CONFLICT')) {
    items.push({
      key: `conflict-${c.taskId}`,
      kind: 'Merge conflict',
      title: `${c.taskId} into ${c.target}`,
      detail: c.files.length > 0 ? c.files.join(', ') : (c.reason ?? ''),
      action: <a href="#/review">Review</a>
    })
  }

  return (
    <Section title="Needs you">
      {items.length === 0 ? (
        <Empty>Nothing needs you right now. Running work shows under Sprint.</Empty>
      ) : (
        <ul className="needs" data-testid="needs-you">
          {items.map((item) => (
            <li key={item.key} data-kind={item.kind}>
              <span className="kind">{item.kind}</span>
              <span className="what">
                <strong>{item.title}</strong>
                <span className="muted">{item.detail}</span>
              </span>
              <span className="act">{item.action}</span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  )
}
