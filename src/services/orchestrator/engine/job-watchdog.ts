/**
 * The dead-man link of a job: `node job-watchdog.js --mark <job mark> --grace-ms <n> --job-pid <pid>`,
 * started by the job with a pipe on its stdin that the job never writes. The kernel closes that
 * pipe when the job ends in any way (exit, crash, kill -9), and then this process stops every
 * process that carries the job's mark (SIGTERM, SIGKILL after the grace), setsid descendants
 * included, with no server and no status read needed, and exits. A stopped (SIGSTOP) job keeps
 * the pipe open: its agents are left to the orphan reconciliation, which tells "stalled" from "died".
 *
 * The pipe alone is not enough: a process that inherited its write end (a fork that did not close
 * it) would keep it open after the job died, and this watchdog would wait for ever. So it also
 * watches its parent, the job: once it is re-parented, the job is gone, whatever holds the pipe.
 */
import { parseArgs } from 'node:util'
import { JOB_MARK_VAR, killProcessTree } from './process-tree.js'

const { values } = parseArgs({ options: { mark: { type: 'string' }, 'grace-ms': { type: 'string' }, 'job-pid': { type: 'string' } } })
const graceMs = Number(values['grace-ms'])
const jobPid = values['job-pid'] === undefined ? null : Number(values['job-pid'])
if (!values.mark || !Number.isFinite(graceMs) || graceMs < 0 || (jobPid !== null && !Number.isSafeInteger(jobPid))) {
  process.stderr.write('usage: job-watchdog --mark <job mark> --grace-ms <n> [--job-pid <pid>]\n')
  process.exit(2)
}
const PARENT_CHECK_MS = 1000
const mark = `${JOB_MARK_VAR}=${values.mark}`
process.stdin.resume()
process.stdin.on('error', () => {})
let fired = false
// A job that ends normally half-closes the pipe ('end' only); a killed one closes it ('end' and/or 'close').
const onJobGone = () => {
  if (fired) return
  fired = true
  void killProcessTree({ marks: [[mark]] }, graceMs).then(
    (pids) => {
      if (pids.length > 0) process.stderr.write(`job-watchdog: the job ended; stopped its processes ${pids.join(', ')}\n`)
      process.exit(0)
    },
    (error: unknown) => {
      process.stderr.write(`job-watchdog: ${String(error)}\n`)
      process.exit(1)
    }
  )
}
process.stdin.once('end', onJobGone)
process.stdin.once('close', onJobGone)
if (jobPid !== null) {
  // getppid() changes (to init or a subreaper) the moment the job dies; a reused pid cannot fool it.
  const parentCheck = setInterval(() => {
    if (process.ppid === jobPid) return
    clearInterval(parentCheck)
    onJobGone()
  }, PARENT_CHECK_MS)
  if (process.ppid !== jobPid) onJobGone()
}
// SIGTERM/SIGHUP sent to this process alone must not cut the link while the job lives.
process.on('SIGTERM', () => {})
process.on('SIGHUP', () => {})
