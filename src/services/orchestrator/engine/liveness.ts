import { isProcessAlive, signalZero, startedBy } from './process-group.js'

/**
 * How long a full proof that a job process lives (its /proc state is not a zombie and it
 * started before the job did, so the pid was not reused; ~50 µs of file reads) is trusted.
 */
export const FULL_PROBE_INTERVAL_MS = 250

/**
 * A job-process liveness check cheap enough for every read request. kill(pid, 0) runs every
 * time (~1 µs), so a process that is gone is seen at once; only the full proof, which also
 * catches a zombie or a reused pid, is repeated at most every `intervalMs` for the same process.
 */
export function createJobLivenessProbe(options: { intervalMs?: number; now?: () => number } = {}) {
  const intervalMs = options.intervalMs ?? FULL_PROBE_INTERVAL_MS
  const now = options.now ?? (() => performance.now())
  let proven: { pid: number; notAfter: number; at: number } | undefined

  return function isJobProcessAlive(pid: number, notAfter: number): boolean {
    if (!signalZero(pid)) {
      proven = undefined
      return false
    }
    const at = now()
    if (proven && proven.pid === pid && proven.notAfter === notAfter && at >= proven.at && at - proven.at < intervalMs) return true
    const alive = isProcessAlive(pid) && startedBy(pid, notAfter)
    proven = alive ? { pid, notAfter, at } : undefined
    return alive
  }
}
