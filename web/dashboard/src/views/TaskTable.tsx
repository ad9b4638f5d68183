/**
 * The Sprint view's task list. Hundreds of rows: each row is memoised on its task (live refreshes keep
 * unchanged task objects, so only changed rows render again) and only running rows follow the clock.
 * The rows lay out as fixed grid tracks and the ones off screen are skipped until scrolled to
 * (styles.css, .task-table): as an auto-sized table, 500 rows cost hundreds of ms of layout.
 */
import { memo, useMemo } from 'react'
import type { Task } from '../api/queries'
import { costText, elapsed, StatusPill, tokensText, useNow, VerdictPill } from '../ui'

const GROUPS: { label: string; statuses: string[] }[] = [
  { label: 'Running', statuses: ['CLAIMED', 'EXECUTING', 'TESTING', 'RUNNING'] },
  { label: 'Waiting', statuses: ['AWAITING_APPROVAL', 'ORPHANED'] },
  { label: 'Queued', statuses: ['PENDING'] },
  { label: 'No-go', statuses: ['NO_GO', 'BLOCKED', 'CANCELLED'] },
  { label: 'Done', statuses: ['DONE'] }
]

const RANK = new Map(GROUPS.flatMap((g, rank) => g.statuses.map((status) => [status, rank] as const)))

/** Running first, done last, any other state after them; the API's order within a group. */
export function inGroupOrder(tasks: readonly Task[]): Task[] {
  const rank = (t: Task) => RANK.get(t.status) ?? GROUPS.length
  return tasks
    .map((t, i) => ({ t, i }))
    .sort((a, b) => rank(a.t) - rank(b.t) || a.i - b.i)
    .map(({ t }) => t)
}

const isRunning = (t: Task) => t.startedAt !== null && t.finishedAt === null

const TaskRow = memo(function TaskRow({ task: t, now }: { task: Task; now: number }) {
  const ran = t.attempts > 0
  return (
    <tr data-task={t.id} data-status={t.status}>
      <td>
        <a href={`#/task/${encodeURIComponent(t.id)}`}>
          <span className="mono">{t.id}</span> {t.title}
        </a>
      </td>
      <td title={t.status}>
        <StatusPill status={t.status} />
      </td>
      <td title={t.assignedAgent ?? undefined}>{t.assignedAgent ?? '–'}</td>
      <td className="mono" title={t.branch ?? undefined}>
        {t.branch ?? '–'}
      </td>
      <td>{elapsed(t.startedAt, t.finishedAt, now)}</td>
      <td>{t.attempts}</td>
      <td>{t.filesChanged.length}</td>
      <td data-col="tokens" title={ran ? undefined : 'not run yet'}>
        {ran ? tokensText(t.usage) : '–'}
      </td>
      <td data-col="cost" title={ran ? undefined : 'not run yet'}>
        {ran ? costText(t.usage.costUsd) : '–'}
      </td>
      <td data-col="xverify">
        <VerdictPill verdict={t.xverify} />
      </td>
    </tr>
  )
})

export const TaskTable = memo(function TaskTable({ tasks }: { tasks: Task[] }) {
  const now = useNow()
  const ordered = useMemo(() => inGroupOrder(tasks), [tasks])
  return (
    <div className="table-wrap">
      <table data-testid="tasks" className="task-table">
        <thead>
          <tr>
            <th scope="col">Task</th>
            <th scope="col">State</th>
            <th scope="col">Agent</th>
            <th scope="col">Branch</th>
            <th scope="col">Elapsed</th>
            <th scope="col">Tries</th>
            <th scope="col">Files</th>
            <th scope="col">Tokens</th>
            <th scope="col">Cost</th>
            <th scope="col">Verify</th>
          </tr>
        </thead>
        <tbody>
          {ordered.map((t) => (
            // A row that is not running gets a constant clock, so the tick every second leaves it alone.
            <TaskRow key={t.id} task={t} now={isRunning(t) ? now : 0} />
          ))}
        </tbody>
      </table>
    </div>
  )
})
