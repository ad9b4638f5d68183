/** The cross-verify verdict recorded on a task (the orch_tasks.xverify column), parsed once here. */

/** SKIPPED: no verifier of another provider is configured; HOLD: no genuine terminal verdict (never closes). */
export const TASK_XVERIFY_VERDICTS = ['CONFIRMED', 'REFUTED', 'UNCLEAR', 'HOLD', 'SKIPPED'] as const
export type TaskXverifyVerdict = (typeof TASK_XVERIFY_VERDICTS)[number]

export interface TaskXverify {
  verdict: TaskXverifyVerdict
  /** Only a CONFIRMED verdict with its whole chain closes the task's claim. */
  closed: boolean
  reason: string
  author: { agent: string; provider: string } | null
  verifier: { agent: string; provider: string; model: string } | null
  /** `cross-verify-verdict:sha256:<digest>` when closed, else null. */
  receiptRef: string | null
  /** The settlement's state: closed (a terminal verdict) or held; null when nothing was dispatched. */
  settlement: 'closed' | 'held' | null
  at: string
}

export function parseTaskXverify(raw: string | null): TaskXverify | null {
  return raw === null ? null : (JSON.parse(raw) as TaskXverify)
}
