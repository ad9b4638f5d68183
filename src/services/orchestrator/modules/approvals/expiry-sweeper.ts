import type { ApprovalsService } from './approvals.service.js'

/** Closes past-due requests with their default action every `intervalMs` (waiters also expire them at once). */
export function startExpirySweeper(options: {
  service: Pick<ApprovalsService, 'sweepExpired'>
  intervalMs: number
  onError: (error: unknown) => void
}) {
  let running = false
  const timer = setInterval(() => {
    if (running) return
    running = true
    options.service
      .sweepExpired()
      .catch(options.onError)
      .finally(() => {
        running = false
      })
  }, options.intervalMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
