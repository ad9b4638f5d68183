import { useLive } from '../api/live'
import { useLimits, useStatus, useTasks, type Task } from '../api/queries'
import { countText, Empty, ErrorBox, Loading, Section } from '../ui'
import { ProgressChart } from './ProgressChart'
import { TaskTable } from './TaskTable'

/** Each part shows as soon as its own read answers: the task list does not wait for the status. */
export function Sprint() {
  const tasks = useTasks()
  const limits = useLimits()
  const list = tasks.data ?? []
  return (
    <>
      <Overview tasks={list} />
      <Section title="Tasks">
        {tasks.isPending ? (
          <Loading />
        ) : tasks.error ? (
          <ErrorBox error={tasks.error} />
        ) : list.length === 0 ? (
          <Empty>No sprint planned yet: write DIRECTIVES.md, then run quartet plan.</Empty>
        ) : (
          <TaskTable tasks={list} />
        )}
      </Section>
      <Activity />
      <Section title="Budget and limits">
        {limits.isPending ? (
          <Loading />
        ) : limits.error ? (
          <ErrorBox error={limits.error} />
        ) : limits.data!.unavailable ? (
          <Empty>Limits unavailable: {limits.data!.reason ?? 'no usage recorded'}</Empty>
        ) : limits.data!.windows.length === 0 ? (
          <Empty>No budget windows configured.</Empty>
        ) : (
          <ul className="limits">
            {limits.data!.windows.map((w) => (
              <li key={w.name}>
                <strong>{w.name}</strong> ({w.hours} h): {countText(w.used.tokens)} tokens, ${w.used.usd.toFixed(2)}
                {w.limit.usd !== null ? ` of $${w.limit.usd}` : ''} · <span className={`verdict-${w.verdict}`}>{w.verdict}</span>
                <meter min={0} max={100} value={Math.min(100, w.pct)} aria-label={`${w.name} used`} />
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  )
}

/** The sprint's counts, state and usage, and the progress chart. */
function Overview({ tasks }: { tasks: Task[] }) {
  const status = useStatus()
  if (status.isPending)
    return (
      <Section title="Sprint">
        <Loading />
      </Section>
    )
  if (status.error)
    return (
      <Section title="Sprint">
        <ErrorBox error={status.error} />
      </Section>
    )
  const s = status.data
  const p = s.progress
  return (
    <Section title={s.sprint.title ? `Sprint: ${s.sprint.title}` : 'Sprint'}>
      <dl className="counts" data-testid="progress">
        {(
          [
            ['Total', p.total],
            ['Done', p.done],
            ['Active', p.active],
            ['Pending', p.pending],
            ['No-go', p.noGo],
            ['Blocked', p.blocked],
            ['Cancelled', p.cancelled],
            ['Orphaned', p.orphaned]
          ] as const
        ).map(([label, value]) => (
          <div key={label} data-count={label.toLowerCase()}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">
        {s.lifecycle} · {s.sprint.status}
        {s.usage ? ` · ${countText(s.usage.tokensUsed)} tokens · $${s.usage.costUsd.toFixed(4)}` : ''}
        {s.job ? ` · job ${s.job.id} (pid ${s.job.pid ?? '–'})` : ''}
      </p>
      {tasks.length > 0 && <ProgressChart tasks={tasks} />}
    </Section>
  )
}

/** The newest events of the log as they arrive (one line per sequence number, even across reconnects). */
function Activity() {
  const { events } = useLive()
  return (
    <Section title="Recent events">
      {events.length === 0 ? (
        <Empty>No event since this page opened.</Empty>
      ) : (
        <ol className="events" data-testid="events" reversed>
          {events.slice(0, 30).map((e) => (
            <li key={e.seq} data-seq={e.seq}>
              <span className="mono muted">#{e.seq}</span> {e.type}
              {e.taskId ? ` · ${e.taskId}` : ''} <span className="muted">{new Date(e.createdAt).toLocaleTimeString()}</span>
            </li>
          ))}
        </ol>
      )}
    </Section>
  )
}
