import { useMutation } from '@tanstack/react-query'
import { ApiError } from '../api/client'
import { authHeaders } from '../api/token'
import { latestMergeStates, useMergeability, useMergeQueue, useTasks, type MergeRun, type TaskMergeability } from '../api/queries'
import { Empty, ErrorBox, Loading, Section, StatusPill } from '../ui'

function NotServed({ what, route }: { what: string; route: string }) {
  return (
    <Empty>
      This server has no {what} routes yet ({route} answers 404). The view fills in when the orchestrator serves them.
    </Empty>
  )
}

/** Review and merge: finished tasks and the merge queue (POST /api/merge, a control mutation). */
export function Review() {
  const tasks = useTasks()
  const queue = useMergeQueue()
  const proposal = useMergeability()
  const merge = useMutation({
    mutationFn: async () => {
      const response = await fetch('/api/merge', {
        method: 'POST',
        headers: { ...authHeaders(), 'content-type': 'application/json' },
        body: '{}'
      })
      const body = (await response.json().catch(() => ({}))) as { error?: string }
      if (!response.ok) throw new ApiError(response.status, body.error ?? `HTTP ${response.status}`)
      return body
    }
  })
  if (tasks.isPending) return <Loading />
  if (tasks.error) return <ErrorBox error={tasks.error} />
  const done = (tasks.data ?? []).filter((t) => t.status === 'DONE')
  const mergeability = new Map((proposal.data?.tasks ?? []).map((m) => [m.taskId, m]))
  const resolved = new Set(
    latestMergeStates(queue.data)
      .filter((i) => i.status === 'RESOLVED')
      .map((i) => i.taskId)
  )
  return (
    <>
      <Section
        title="Ready to merge"
        actions={
          <button type="button" onClick={() => merge.mutate()} disabled={merge.isPending || done.length === 0}>
            Start merge
          </button>
        }
      >
        {merge.error instanceof ApiError && merge.error.status === 404 ? (
          <NotServed what="merge" route="POST /api/merge" />
        ) : merge.error instanceof ApiError && merge.error.status === 403 ? (
          <p role="note">
            Control over the API is off ({merge.error.message}). Merge at the terminal: <code>quartet merge</code>
          </p>
        ) : merge.error ? (
          <ErrorBox error={merge.error} />
        ) : merge.data ? (
          <pre className="args">{JSON.stringify(merge.data, null, 2)}</pre>
        ) : null}
        {done.length === 0 ? (
          <Empty>No finished task to merge.</Empty>
        ) : (
          <ul className="files">
            {done.map((t) => (
              <li key={t.id}>
                <a href={`#/task/${encodeURIComponent(t.id)}`}>
                  <span className="mono">{t.id}</span> {t.title}
                </a>{' '}
                <StatusPill status={t.status} /> <span className="mono muted">{t.branch ?? ''}</span> · {t.filesChanged.length} files
                <Mergeable state={mergeability.get(t.id)} into={proposal.data?.target ?? null} />
                {resolved.has(t.id) ? (
                  <span className="muted" data-resolved={t.id}>
                    {' '}
                    · <StatusPill status="RESOLVED" /> by an agent, not landed:{' '}
                    <a href={`#/task/${encodeURIComponent(t.id)}`}>review its diff</a>, then Start merge lands it
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Merge queue">
        {queue.isPending ? (
          <Loading />
        ) : queue.error ? (
          <ErrorBox error={queue.error} />
        ) : queue.data.runs.length === 0 ? (
          <Empty>No merge yet.</Empty>
        ) : (
          queue.data.runs.map((run) => <MergeRunView key={run.id} run={run} />)
        )}
      </Section>
    </>
  )
}

function Mergeable({ state, into }: { state: TaskMergeability | undefined; into: string | null }) {
  if (!state || !into) return null
  return (
    <span data-mergeable={state.state}>
      {' '}
      · into <span className="mono">{into}</span>: <StatusPill status={state.state} />
      {state.state === 'BEHIND' ? <span className="muted"> {state.behind} commits behind, merges cleanly</span> : null}
      {state.state === 'CONFLICT' ? <span className="mono"> {state.files.join(', ')}</span> : null}
    </span>
  )
}

function MergeRunView({ run }: { run: MergeRun }) {
  return (
    <div className="merge-run" data-testid={`merge-${run.id}`}>
      <p>
        <span className="mono">{run.id}</span> → <span className="mono">{run.target}</span> ({run.strategy}){' '}
        <StatusPill status={run.status} /> <span className="muted">{new Date(run.createdAt).toLocaleString()}</span>
        {run.error ? <span className="muted"> · {run.error}</span> : null}
      </p>
      <ul className="files">
        {run.items.map((item) => (
          <li key={item.taskId} data-status={item.status}>
            <span className="mono">{item.taskId}</span> <StatusPill status={item.status} />
            {item.files.length > 0 ? <span className="mono"> {item.files.join(', ')}</span> : null}
            {item.reason ? <span className="muted"> · {item.reason}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  )
}
