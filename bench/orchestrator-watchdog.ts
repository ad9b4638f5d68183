/**
 * kill -9 of a job → all its agents gone: 20 runs of a stand-in job process that starts the real
 * watchdog (engine/job-watchdog.ts) and one marked agent leaving a setsid grandchild, then is
 * SIGKILLed. Prints the time until both agent processes are gone (median, p95, max).
 * Run: node --import tsx bench/orchestrator-watchdog.ts [runs]
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { jobEntryCommand } from '../src/services/orchestrator/engine/job-command.js'
import { JOB_MARK_VAR } from '../src/services/orchestrator/engine/process-tree.js'
import { reportRows } from './harness.js'

const runs = Number(process.argv[2] ?? 20)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-watchdog-bench-'))
const alive = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const times: number[] = []
for (let i = 0; i < runs; i++) {
  const mark = `bench.${process.pid}.${i}`
  const watchdog = jobEntryCommand(['--mark', mark, '--grace-ms', '1000'], 'job-watchdog')
  const pidFile = path.join(dir, `pids-${i}`)
  // The stand-in job: starts the watchdog with a pipe it holds, then an agent with its mark.
  const job = spawn(
    process.execPath,
    [
      '-e',
      `const { spawn } = require('node:child_process');
       const w = spawn(${JSON.stringify(watchdog.command)}, ${JSON.stringify(watchdog.args)},
         { detached: true, stdio: ['pipe', 'ignore', 'inherit'] });
       w.unref();
       const a = spawn('/bin/sh', ['-c', 'setsid sleep 300 > /dev/null 2>&1 & echo $$ $! > ${pidFile}; sleep 300'],
         { detached: true, stdio: 'ignore', env: { ...process.env, ${JOB_MARK_VAR}: ${JSON.stringify(mark)} } });
       a.unref();
       setInterval(() => {}, 1000);`
    ],
    { stdio: 'ignore', detached: true }
  )
  while (!fs.existsSync(pidFile) || fs.readFileSync(pidFile, 'utf8').split(' ').length < 2) await sleep(20)
  // Give the watchdog time to load (it is started from source through tsx here).
  await sleep(3000)
  const pids = fs.readFileSync(pidFile, 'utf8').trim().split(' ').map(Number)
  const killedAt = performance.now()
  process.kill(job.pid!, 'SIGKILL')
  while (pids.some(alive)) await sleep(5)
  times.push(performance.now() - killedAt)
}
fs.rmSync(dir, { recursive: true, force: true })
times.sort((a, b) => a - b)
const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!
reportRows([
  {
    service: 'orchestrator',
    name:
      "`kill -9` of a job → its agent and the agent's `setsid` grandchild gone " +
      `(stand-in job, the real watchdog from source, ${runs} runs)`,
    result: {
      metrics: { 'median ms': at(0.5), 'p95 ms': at(0.95), 'max ms': times.at(-1)!, 'load average': os.loadavg()[0]! },
      targetText: 'every agent gone within 15 s',
      pass: times.at(-1)! < 15_000
    }
  }
])
