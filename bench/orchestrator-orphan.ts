/**
 * Job death → `job_orphaned` on the stream: the built `quartet serve orchestrator` watches a real
 * detached job (`quartet run --detach`, one task whose agent sleeps) with one `/api/events`
 * reader; the job is SIGKILLed and the time until the reader gets `job_orphaned` is taken.
 * Repeated [runs] times (each a fresh `quartet plan --force` + run). Prints median, p95, max.
 * Run: node --import tsx bench/orchestrator-orphan.ts [runs] (after `npm run build`)
 */
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CLI, median, reportRows, serverEnv, startServer, stop } from './harness.js'

const RUNS = Number(process.argv[2] ?? 5)
const TOKEN = 'bench-orphan-token-0123456789abcdef'
if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`)

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-orphan-')))
const root = path.join(base, 'project')
const dataDir = path.join(base, 'data')
fs.mkdirSync(path.join(root, '.quartet'), { recursive: true })
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' })
git('init', '-q', '-b', 'main')
git('config', 'user.email', 'bench@example.com')
git('config', 'user.name', 'Bench')
fs.writeFileSync(path.join(root, 'README.md'), '# bench\n')
git('add', '-A')
git('commit', '-q', '-m', 'initial')
fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), '.quartet/\nDIRECTIVES.md\n')
fs.writeFileSync(
  path.join(root, '.quartet', 'config.json'),
  JSON.stringify({ agents: { sleeper: { kind: 'command', argv: ['/bin/sh', '-c', 'sleep 120'] } }, default_agent: 'sleeper' })
)
fs.writeFileSync(path.join(root, 'DIRECTIVES.md'), '# Bench\n\n## Task 1: wait\nSleeps until it is killed.\n')

const env = serverEnv({ QUARTET_PROJECT: root, QUARTET_API_TOKEN: TOKEN, LOG_LEVEL: 'warn' }, dataDir)
const quartet = (...args: string[]) => {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd: root, env, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`quartet ${args.join(' ')} exited ${run.status}: ${run.stderr}`)
  return run.stdout
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resolves with the time (performance.now()) the first `job_orphaned` frame arrives on the stream. */
async function orphanedEvent(url: string, signal: AbortSignal): Promise<number> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}`, accept: 'text/event-stream' }, signal })
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error('the event stream ended')
    text += decoder.decode(value, { stream: true })
    if (/^event: job_orphaned$/m.test(text)) return performance.now()
  }
}

const server = await startServer(['orchestrator'], env)
const times: number[] = []
try {
  const events = `${server.urls.orchestrator}/api/events`
  for (let i = 0; i < RUNS; i++) {
    quartet('plan', '--force')
    quartet('run', '--detach')
    let jobPid: number | undefined
    for (let tries = 0; tries < 200 && jobPid === undefined; tries++) {
      const status = JSON.parse(quartet('status', '--json')) as { job?: { pid?: number | null; status?: string } }
      const agentRuns = JSON.stringify(status).includes('EXECUTING')
      if (status.job?.pid && agentRuns) jobPid = status.job.pid
      else await sleep(100)
    }
    if (jobPid === undefined) throw new Error('the job did not start its agent')
    const abort = new AbortController()
    // Without ?after= the stream carries only events from now on (no replay of earlier runs').
    const seen = orphanedEvent(events, abort.signal)
    await sleep(300)
    process.kill(jobPid, 'SIGKILL')
    const killedAt = performance.now()
    const at = await Promise.race([seen, sleep(30_000).then(() => NaN)])
    abort.abort()
    if (!Number.isFinite(at)) throw new Error(`no job_orphaned within 30 s (run ${i + 1})`)
    times.push(at - killedAt)
    process.stdout.write(`run ${i + 1}: job_orphaned after ${Math.round(at - killedAt)} ms\n`)
  }
} finally {
  await stop(server.child)
  fs.rmSync(base, { recursive: true, force: true })
}

const sorted = [...times].sort((a, b) => a - b)
reportRows([
  {
    service: 'orchestrator',
    name: `job SIGKILLed → \`job_orphaned\` on \`/api/events\` (built server watching a real detached job, one reader, ${RUNS} runs)`,
    result: {
      metrics: {
        'median ms': median(sorted),
        'p95 ms': sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))]!,
        'max ms': sorted.at(-1)!
      },
      targetText: '`job_orphaned` within 10 s of the job’s death',
      pass: sorted.length === RUNS && sorted.at(-1)! < 10_000
    }
  }
])
