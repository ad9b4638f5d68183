/**
 * Evaluation health (`GET /api/evaluate-health?n=`): how often the engine could not judge an
 * attempt properly over the last n sprints. Each count is a fact recorded by the engine on the
 * attempt (its status and the reason the executor wrote):
 *   EVALUATION_FAULT       the check command could not be started, timed out, or was killed by a signal
 *   EVALUATE_ABORTED       the attempt was cancelled (kill, budget stop) or orphaned (its job died)
 *   EVALUATE_PREMATURE     the agent ended successfully without producing the expected change
 *   RESULT_CONTRACT_DRIFT  the attempt has no recorded outcome although its job is over, or the
 *                          agent exited 0 while reporting an error result
 */
import type { AttemptFact } from '../../state/insight.repository.js'
import type { InsightRepositories } from './insight-repositories.js'

export const EVALUATE_HEALTH_DEFAULT_N = 20
export const EVALUATE_HEALTH_MAX_N = 200

export type EvaluationFault = 'EVALUATION_FAULT' | 'EVALUATE_ABORTED' | 'EVALUATE_PREMATURE' | 'RESULT_CONTRACT_DRIFT'

export interface EvaluateHealthView {
  counts: Record<EvaluationFault, number>
  lastEventAt: string | null
  sprintsScanned: number
  clean: boolean
  generatedAt: string
}

/** n as given when it is an integer 1..200, else the default. */
export function parseSprintWindow(raw: unknown, fallback: number, max: number): number {
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) return fallback
  const n = Number(raw)
  return n >= 1 && n <= max ? n : fallback
}

export function classifyAttempt(attempt: AttemptFact): EvaluationFault | null {
  const reason = attempt.reason ?? ''
  if (attempt.status === 'running') return attempt.jobActive === true ? null : 'RESULT_CONTRACT_DRIFT'
  if (attempt.status === 'CANCELLED' || attempt.status === 'ORPHANED') return 'EVALUATE_ABORTED'
  if (/^check command (could not be started|timed out)/.test(reason) || /^check command failed \(exit [A-Z]/.test(reason))
    return 'EVALUATION_FAULT'
  if (/^(agent exited 0 but changed no files|the provider proposed no change)/.test(reason)) return 'EVALUATE_PREMATURE'
  if (/^agent reported an error/.test(reason)) return 'RESULT_CONTRACT_DRIFT'
  return null
}

export async function evaluateHealth(
  repositories: InsightRepositories,
  projectId: number,
  n: number,
  now: Date
): Promise<EvaluateHealthView> {
  const sprints = await repositories.sprints.list(projectId, n)
  const attempts = await repositories.insight.attempts(
    projectId,
    sprints.map((s) => s.id)
  )
  const counts: Record<EvaluationFault, number> = {
    EVALUATION_FAULT: 0,
    EVALUATE_ABORTED: 0,
    EVALUATE_PREMATURE: 0,
    RESULT_CONTRACT_DRIFT: 0
  }
  let lastEventAt: string | null = null
  for (const attempt of attempts) {
    const fault = classifyAttempt(attempt)
    if (!fault) continue
    counts[fault]++
    const at = attempt.finishedAt ?? attempt.startedAt
    if (lastEventAt === null || at > lastEventAt) lastEventAt = at
  }
  return {
    counts,
    lastEventAt,
    sprintsScanned: sprints.length,
    clean: Object.values(counts).every((count) => count === 0),
    generatedAt: now.toISOString()
  }
}
