import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { after, test } from 'node:test'
import { jobEntryCommand } from '../../../../src/services/orchestrator/engine/job-command.js'
import { JOB_MARK_VAR } from '../../../../src/services/orchestrator/engine/process-tree.js'
import { processRunning } from './helpers.js'

test('the job watchdog stops marked processes and exits when the job closes the pipe normally (half-close)', async () => {
  const mark = `watchdog-test.${process.pid}`
  const { command, args } = jobEntryCommand(['--mark', mark, '--grace-ms', '500'], 'job-watchdog')
  const watchdog = spawn(command, args, { stdio: ['pipe', 'ignore', 'inherit'] })
  const agent = spawn('sleep', ['300'], { stdio: 'ignore', detached: true, env: { ...process.env, [JOB_MARK_VAR]: mark } })
  agent.unref()
  const exited = new Promise<number | null>((resolve) => watchdog.on('exit', (code) => resolve(code)))
  // Let it load (from source through tsx) before the pipe closes.
  await new Promise((resolve) => setTimeout(resolve, 2000))
  assert.equal(processRunning(agent.pid!), true)
  watchdog.stdin.end()
  const code = await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve('timeout'), 30_000))])
  assert.equal(code, 0)
  assert.equal(processRunning(agent.pid!), false, 'the marked process is gone')
})

// A stand-in job: starts the watchdog with the pipe, leaks the pipe's write end into an unmarked
// long-lived process (as a fork that does not close it would), starts one marked agent, then idles.
const STAND_IN_JOB = `
const { spawn } = require('node:child_process')
const [command, args, markVar, mark, linkParent] = JSON.parse(process.argv[1])
const watchdogArgs = linkParent ? [...args, '--job-pid', String(process.pid)] : args
const watchdog = spawn(command, watchdogArgs, { stdio: ['pipe', 'ignore', 'inherit'], detached: true })
const holder = spawn('sleep', ['300'], { stdio: ['ignore', 'ignore', 'ignore', watchdog.stdin], detached: true })
const agent = spawn('sleep', ['300'], { stdio: 'ignore', detached: true, env: { ...process.env, [markVar]: mark } })
process.stdout.write(JSON.stringify({ watchdog: watchdog.pid, holder: holder.pid, agent: agent.pid }) + '\\n')
setInterval(() => {}, 1000)
`

async function standInJob(linkParent: boolean) {
  const mark = `watchdog-leak.${process.pid}.${linkParent}`
  const { command, args } = jobEntryCommand(['--mark', mark, '--grace-ms', '500'], 'job-watchdog')
  const job = spawn(process.execPath, ['-e', STAND_IN_JOB, JSON.stringify([command, args, JOB_MARK_VAR, mark, linkParent])], {
    stdio: ['ignore', 'pipe', 'inherit']
  })
  const line = await new Promise<string>((resolve) => job.stdout.once('data', (data: Buffer) => resolve(data.toString())))
  const pids = JSON.parse(line) as { watchdog: number; holder: number; agent: number }
  after(() => {
    for (const pid of [job.pid!, pids.watchdog, pids.holder, pids.agent])
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        /* gone */
      }
  })
  // Let the watchdog load (from source through tsx) before the job dies.
  await new Promise((resolve) => setTimeout(resolve, 3000))
  assert.equal(processRunning(pids.watchdog), true, 'the watchdog runs')
  process.kill(job.pid!, 'SIGKILL')
  return pids
}

async function gone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (!processRunning(pid)) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

test('a watchdog whose pipe another process holds open still stops the agents and exits once its job dies', async () => {
  const pids = await standInJob(true)
  assert.equal(await gone(pids.agent, 15_000), true, 'the marked agent is stopped')
  assert.equal(await gone(pids.watchdog, 15_000), true, 'the watchdog exits')
  assert.equal(processRunning(pids.holder), true, 'the pipe is still held open by the other process')
})
