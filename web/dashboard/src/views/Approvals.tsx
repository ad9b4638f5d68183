import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, ApiError, unwrap } from '../api/client'
import { useApprovalHistory, useApprovals, type Approval, type ApprovalHistory } from '../api/queries'
import { Empty, ErrorBox, Loading, Section } from '../ui'

/** The decision route answers 403 while approval.api_decide is off: the terminal decides then. */
function cliCommand(id: string, decision: 'allow' | 'deny'): string {
  return `quartet approvals decide ${id} ${decision}`
}

function Pending({ entry }: { entry: Approval }) {
  const queryClient = useQueryClient()
  const r = entry.request
  const [reason, setReason] = useState('')
  const [refusal, setRefusal] = useState<string | null>(null)
  const decide = useMutation({
    mutationFn: async (decision: 'allow' | 'deny') => {
      const result = await api.POST('/api/approvals/{id}/decision', {
        params: { path: { id: r.id } },
        body: reason ? { decision, reason } : { decision },
        headers: { 'idempotency-key': `dash-${r.id}-${decision}` }
      })
      return unwrap(result)
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['approvals'] }),
    onError: (error) => setRefusal(error instanceof ApiError && error.status === 403 ? error.message : null)
  })
  return (
    <li className="approval" data-approval={r.id}>
      <div>
        <strong>{r.summary}</strong>
        <div className="muted">
          {r.id} · {r.risk} risk · {r.scope} · {r.taskId ? `task ${r.taskId} · ` : ''}
          {r.toolName ? `${r.toolName} · ` : ''}expires {new Date(r.expiresAt).toLocaleString()} (then {r.defaultAction})
        </div>
        <pre className="args" aria-label="masked arguments">
          {JSON.stringify(r.maskedArgs, null, 2)}
        </pre>
      </div>
      {refusal ? (
        <div className="cli" role="note">
          <p>Deciding over HTTP is off here ({refusal}). Decide at the project&apos;s terminal:</p>
          <code>{cliCommand(r.id, 'allow')}</code>
          <code>{cliCommand(r.id, 'deny')}</code>
        </div>
      ) : (
        <div className="decide">
          <label>
            Reason <input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={2000} />
          </label>
          <button type="button" onClick={() => decide.mutate('allow')} disabled={decide.isPending}>
            Allow
          </button>
          <button type="button" className="danger" onClick={() => decide.mutate('deny')} disabled={decide.isPending}>
            Deny
          </button>
          {decide.error && !refusal ? <ErrorBox error={decide.error} /> : null}
        </div>
      )}
    </li>
  )
}

export function Approvals() {
  const approvals = useApprovals()
  const history = useApprovalHistory()
  if (approvals.isPending) return <Loading />
  if (approvals.error) return <ErrorBox error={approvals.error} />
  const pending = approvals.data!.pending
  return (
    <>
      <Section title={`Pending approvals (${pending.length})`}>
        {pending.length === 0 ? (
          <Empty>No approval request is waiting.</Empty>
        ) : (
          <ul className="approvals" data-testid="pending-approvals">
            {pending.map((entry) => (
              <Pending key={entry.request.id} entry={entry} />
            ))}
          </ul>
        )}
      </Section>
      <Section title="History">
        {history.isPending ? <Loading /> : history.error ? <ErrorBox error={history.error} /> : <History data={history.data!} />}
      </Section>
    </>
  )
}

function History({ data }: { data: ApprovalHistory }) {
  const rows = data.entries.filter((e) => e.category !== 'pending')
  if (rows.length === 0) return <Empty>No decided request yet.</Empty>
  return (
    <ul className="history" data-testid="approval-history">
      {rows.map((e) => (
        <li key={e.id} data-approval={e.id}>
          <span className="mono">{e.id}</span> {e.summary} — <strong>{e.category}</strong>
          {e.decidedBy ? ` by ${e.decidedBy}` : ''}
          {e.channel ? ` (${e.channel})` : ''}
          {e.decidedAt ? `, ${new Date(e.decidedAt).toLocaleString()}` : ''}
          {e.reason ? `: ${e.reason}` : ''}
        </li>
      ))}
    </ul>
  )
}
