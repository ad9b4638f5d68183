import { useEffect, useRef, useState } from 'react'
import { openStream, type StreamState } from '../api/sse'
import { useOptional, useTaskDetail } from '../api/queries'
import { costText, elapsed, Empty, ErrorBox, Loading, Section, StatusPill, tokensText, useNow, VerdictPill } from '../ui'
import { DiffView } from './Diff'

const MAX_LINES = 2000

/**
 * The worker log, live. The stream sends the whole file from its start on every connection, so a
 * reconnect starts the view over rather than appending (no line is shown twice).
 */
function LiveLog({ taskId }: { taskId: string }) {
  const [lines, setLines] = useState<string[]>([])
  const [state, setState] = useState<StreamState>('connecting')
  const [missing, setMissing] = useState(false)
  const [follow, setFollow] = useState(true)
  const pre = useRef<HTMLPreElement>(null)

  useEffect(() => {
    setLines([])
    const stream = openStream({
      url: `/api/workers/${encodeURIComponent(taskId)}/logs/stream`,
      resumable: false,
      onState: setState,
      onOpen: () => {
        setLines([])
        setMissing(false)
      },
      onFrame: (frame) => {
        if (frame.event === 'log_unavailable') return setMissing(true)
        // The task no longer runs and every line was sent: nothing to reconnect for.
        if (frame.event === 'log_end') return stream.close()
        if (frame.event !== 'log_line') return
        try {
          const { line } = JSON.parse(frame.data) as { line: string }
          setMissing(false)
          setLines((list) => (list.length >= MAX_LINES ? [...list.slice(-MAX_LINES + 1), line] : [...list, line]))
        } catch {
          /* not a log line */
        }
      }
    })
    return () => stream.close()
  }, [taskId])

  useEffect(() => {
    if (follow && pre.current) pre.current.scrollTop = pre.current.scrollHeight
  }, [lines, follow])

  return (
    <Section
      title="Worker log"
      actions={
        <label className="follow">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> follow the tail
          <span className="muted"> · {state}</span>
        </label>
      }
    >
      {missing && lines.length === 0 ? (
        <Empty>No log yet: the task has not started an agent.</Empty>
      ) : (
        <pre ref={pre} className="log" data-testid="log" tabIndex={0} aria-label="worker log">
          {lines.join('\n')}
        </pre>
      )}
    </Section>
  )
}

function TaskDiff({ taskId }: { taskId: string }) {
  const diff = useOptional(`/api/sprint/task/${encodeURIComponent(taskId)}/diff`)
  if (diff.isPending) return <Loading />
  if (diff.error) return <ErrorBox error={diff.error} />
  const text = (diff.data as { diff?: unknown } | null)?.diff
  if (diff.data === null || typeof text !== 'string')
    return (
      <Empty>
        This server has no per-task diff route (GET /api/sprint/task/:id/diff) yet; the files the task changed are listed above.
      </Empty>
    )
  const resolution = (diff.data as { resolution?: { mergeId: string; target: string; land: string; undo: string | null } }).resolution
  return (
    <>
      {resolution ? (
        <p data-testid="resolution">
          <StatusPill status="RESOLVED" /> An agent resolved this task&apos;s merge conflict on its branch (merge{' '}
          <span className="mono">{resolution.mergeId}</span>); it has not landed. The diff is the branch against{' '}
          <span className="mono">{resolution.target}</span>. Land it with Start merge or <code>{resolution.land}</code>
          {resolution.undo ? (
            <>
              ; undo it with <code>{resolution.undo}</code>
            </>
          ) : null}
          .
        </p>
      ) : null}
      <DiffView diff={text} />
    </>
  )
}

export function TaskView({ id }: { id: string }) {
  const detail = useTaskDetail(id)
  const now = useNow()
  if (detail.isPending) return <Loading />
  if (detail.error) return <ErrorBox error={detail.error} />
  const d = detail.data!
  const t = d.task
  const r = d.result
  return (
    <>
      <p>
        <a href="#/sprint">← Sprint</a>
      </p>
      <Section title={`${t.id} ${t.title}`}>
        <dl className="facts" data-testid="task-facts">
          <dt>State</dt>
          <dd>
            <StatusPill status={t.status} />
          </dd>
          <dt>Agent</dt>
          <dd>{d.currentRun?.agent ?? r?.agent ?? t.assignedAgent ?? '–'}</dd>
          <dt>Branch</dt>
          <dd className="mono">{t.branch ?? '–'}</dd>
          <dt>Elapsed</dt>
          <dd>{elapsed(t.startedAt, t.finishedAt, now)}</dd>
          <dt>Attempts</dt>
          <dd>{t.attempts}</dd>
          {r && (
            <>
              <dt>Last attempt</dt>
              <dd>
                #{r.attempt} {r.status}
                {r.exitCode !== null ? `, exit ${r.exitCode}` : ''}
                {r.agentMs !== null ? `, ${Math.round(r.agentMs / 1000)} s` : ''}
              </dd>
              <dt>Last attempt tokens · cost</dt>
              <dd>
                tokens {tokensText(r.usage)} · cost {costText(r.usage.costUsd)}
                {r.usage.model ? ` · ${r.usage.model}` : ''}
              </dd>
            </>
          )}
          <dt>All attempts tokens · cost</dt>
          <dd data-testid="task-usage">
            tokens {tokensText(t.usage)} · cost {costText(t.usage.costUsd)}
          </dd>
          {t.reason && (
            <>
              <dt>Reason</dt>
              <dd className="reason">{t.reason}</dd>
            </>
          )}
          {d.hb && !t.finishedAt && (
            <>
              <dt>Now</dt>
              <dd>
                {d.hb.status}: {d.hb.currentAction} {d.hb.stale ? '(stale)' : ''}
              </dd>
            </>
          )}
        </dl>
        <h3>Files changed ({t.filesChanged.length})</h3>
        {t.filesChanged.length === 0 ? (
          <Empty>None yet.</Empty>
        ) : (
          <ul className="files" data-testid="files-changed">
            {t.filesChanged.map((f) => (
              <li key={f} className="mono">
                {f}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Cross-verify">
        {t.xverify ? (
          <dl className="facts" data-testid="task-xverify">
            <dt>Verdict</dt>
            <dd>
              <VerdictPill verdict={t.xverify} /> {t.xverify.closed ? 'claim closed' : 'claim not closed: review before merging'}
            </dd>
            <dt>Reason</dt>
            <dd className="reason">{t.xverify.reason}</dd>
            <dt>Verifier</dt>
            <dd>
              {t.xverify.verifier ? `${t.xverify.verifier.agent} (${t.xverify.verifier.provider}, ${t.xverify.verifier.model})` : '–'}
            </dd>
            <dt>Receipt</dt>
            <dd className="mono">{t.xverify.receiptRef ?? '–'}</dd>
          </dl>
        ) : (
          <Empty>Not cross-verified. Set cross_verify.after_task in .quartet/config.json, or run quartet xverify {t.id}.</Empty>
        )}
      </Section>
      <LiveLog taskId={t.id} />
      <Section title="Diff">
        <TaskDiff taskId={t.id} />
      </Section>
    </>
  )
}
