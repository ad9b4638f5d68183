/**
 * tsx bench/orchestrator-engine.ts [tasks] [workers]
 *
 * Per-task engine overhead: a sprint of no-op command agents (/bin/true, no change expected) run
 * by the engine's real detached job process, built as users run it (`node dist/…/job-main.js`,
 * as `quartet run` and `POST /api/start` start it), on a SQLite state file: once in a plain
 * directory (no worktrees) and once in a git repository (one worktree and branch per task). A
 * task's overhead is its wall time from claim to its final event minus the agent's own run time
 * (recorded with its attempt). The CPU per task is the job's and everything it ran (agents, git).
 * Prints median/p95 per mode and whether the targets are met.
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { cpuMs } from './harness.js'
import { openDatabase } from '../src/core/db/database.js'
import { migrateToLatest } from '../src/core/db/migrations.js'
import type { PlannedTask } from '../src/services/orchestrator/engine/types.js'
import type { OrchestratorDb } from '../src/services/orchestrator/state/db.js'
import { orchestratorMigrations } from '../src/services/orchestrator/migrations/index.js'
import { createOrchestratorRepositories } from '../src/services/orchestrator/state/repositories.js'

export interface EngineOverhead {
  mode: 'plain' | 'worktrees'
  tasks: number
  workers: number
  sprintMs: number
  overhead: { medianMs: number; p95Ms: number }
  agent: { medianMs: number }
  /** CPU time per task of the job process and of the processes it waited for (agents, git): what the cores had to do. */
  cpuPerTaskMs: number
  /** Of which the job process itself (scheduling, state, spawning), sampled every 50 ms: a lower bound. */
  jobCpuPerTaskMs: number
  targetMs: number
  met: boolean
}

const TARGET_MS = { plain: 50, worktrees: 150 } as const
const root = path.resolve(import.meta.dirname, '..')
const JOB_MAIN = path.join(root, 'dist', 'services', 'orchestrator', 'engine', 'job-main.js')

/** User+system CPU ms of the children this process has waited for (/proc/self/stat fields 16–17, in clock ticks). */
function childrenCpuMs(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[16 - 3]) + Number(fields[17 - 3])) * 10
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN
}

function noOpTask(index: number): PlannedTask {
  return {
    key: String(index + 1),
    title: `no-op ${index + 1}`,
    description: 'nothing to do',
    dependencies: [],
    files: [],
    goCriteria: [],
    noGoCriteria: [],
    priority: 'NORMAL',
    expectChange: false
  }
}

function runJobProcess(
  jobId: number,
  project: string,
  dataDir: string
): Promise<{ code: number | null; output: string; ownCpuMs: number }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env }
    delete env.DATABASE_URL
    const child = spawn(
      process.execPath,
      [
        ...(process.env.BENCH_JOB_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
        JOB_MAIN,
        '--job',
        String(jobId),
        '--project',
        project,
        '--data-dir',
        dataDir
      ],
      { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] }
    )
    let output = ''
    // The job's own CPU time, as last seen before it exits (its children's is counted on exit).
    let ownCpuMs = 0
    const sample = setInterval(() => {
      const now = cpuMs(child.pid as number)
      if (Number.isFinite(now)) ownCpuMs = now // NaN once it is gone
    }, 50)
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.on('error', reject)
    child.on('close', (code) => {
      clearInterval(sample)
      resolve({ code, output, ownCpuMs })
    })
  })
}

export async function measureEngineOverhead(mode: EngineOverhead['mode'], tasks = 200, workers = 8): Promise<EngineOverhead> {
  if (!fs.existsSync(JOB_MAIN)) {
    const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'ensure-built.mjs')], { cwd: root, stdio: 'inherit' })
    if (built.status !== 0 || !fs.existsSync(JOB_MAIN)) throw new Error(`${JOB_MAIN} is missing and could not be built`)
  }
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `quartet-bench-engine-${mode}-`)))
  const project = path.join(dir, 'project')
  const dataDir = path.join(dir, 'data')
  fs.mkdirSync(path.join(project, '.quartet'), { recursive: true })
  fs.mkdirSync(dataDir)
  try {
    if (mode === 'worktrees') {
      for (const args of [
        ['init', '-q', '-b', 'main'],
        ['config', 'user.name', 'Bench'],
        ['config', 'user.email', 'bench@localhost'],
        ['commit', '-q', '--allow-empty', '-m', 'initial']
      ]) {
        if (spawnSync('git', args, { cwd: project }).status !== 0) throw new Error(`git ${args[0]} failed`)
      }
    }
    fs.writeFileSync(
      path.join(project, '.quartet', 'config.json'),
      JSON.stringify({
        agents: { noop: { kind: 'command', argv: ['/bin/true'] } },
        default_agent: 'noop',
        engine: { max_workers: workers }
      })
    )
    const sqlitePath = path.join(dataDir, 'quartet.db')
    const setup = await openDatabase({ sqlitePath })
    let jobId: number
    let sprintId: string
    let projectId: number
    try {
      await migrateToLatest(setup.db, [orchestratorMigrations])
      const repos = createOrchestratorRepositories(setup.db as OrchestratorDb, () => new Date())
      projectId = await repos.projects.ensure(project)
      const { sprint } = await repos.sprints.createFromPlan(
        projectId,
        { mode: 'structured', tasks: Array.from({ length: tasks }, (_, i) => noOpTask(i)), warnings: [] },
        { title: 'bench', directivesDigest: null }
      )
      sprintId = sprint.id
      jobId = (await repos.jobs.startJob(projectId, sprint.id, { resume: false })).job.id
    } finally {
      await setup.close()
    }

    const cpuBefore = childrenCpuMs()
    const started = performance.now()
    const job = await runJobProcess(jobId, project, dataDir)
    const sprintMs = performance.now() - started
    const cpuMs = childrenCpuMs() - cpuBefore
    if (job.code !== 0) throw new Error(`the job exited ${job.code}: ${job.output}`)

    const read = await openDatabase({ sqlitePath })
    try {
      const repos = createOrchestratorRepositories(read.db as OrchestratorDb, () => new Date())
      const attempts = await (read.db as OrchestratorDb)
        .selectFrom('orch_attempts')
        .innerJoin('orch_tasks', 'orch_tasks.id', 'orch_attempts.task_id')
        .select(['orch_attempts.task_id as key', 'orch_attempts.agent_ms as agentMs', 'orch_attempts.status as status'])
        .where('orch_tasks.sprint_id', '=', sprintId)
        .execute()
      const done = attempts.filter((a) => a.status === 'DONE')
      if (done.length !== tasks) throw new Error(`expected ${tasks} DONE tasks, got ${done.length} of ${attempts.length} attempts`)
      const agentMs = new Map(done.map((a) => [a.key, Number(a.agentMs)]))
      const claimed = new Map<string, number>()
      const overheads: number[] = []
      for (const event of await repos.events.readAfter(projectId, 0, 100 * tasks, { sprintId })) {
        if (!event.taskId) continue
        if (event.type === 'task_claimed') claimed.set(event.taskId, Date.parse(event.createdAt))
        if (event.type === 'task_done')
          overheads.push(Date.parse(event.createdAt) - claimed.get(event.taskId)! - agentMs.get(event.taskId)!)
      }
      const median = quantile(overheads, 0.5)
      return {
        mode,
        tasks,
        workers,
        sprintMs: Math.round(sprintMs),
        overhead: { medianMs: median, p95Ms: quantile(overheads, 0.95) },
        agent: { medianMs: quantile([...agentMs.values()], 0.5) },
        cpuPerTaskMs: Math.round((cpuMs / tasks) * 10) / 10,
        jobCpuPerTaskMs: Math.round((job.ownCpuMs / tasks) * 10) / 10,
        targetMs: TARGET_MS[mode],
        met: median < TARGET_MS[mode]
      }
    } finally {
      await read.close()
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const tasks = Number(process.argv[2] ?? 200)
  const workers = Number(process.argv[3] ?? 8)
  let failed = false
  for (const mode of ['plain', 'worktrees'] as const) {
    const r = await measureEngineOverhead(mode, tasks, workers)
    failed ||= !r.met
    console.log(
      `${mode.padEnd(9)} ${r.tasks} tasks × ${r.workers} workers in ${(r.sprintMs / 1000).toFixed(1)} s: ` +
        `overhead median ${r.overhead.medianMs} ms, p95 ${r.overhead.p95Ms} ms ` +
        `(agent median ${r.agent.medianMs} ms; CPU per task ${r.cpuPerTaskMs} ms, of which the job itself ${r.jobCpuPerTaskMs} ms); ` +
        `target median < ${r.targetMs} ms: ${r.met ? 'met' : 'MISSED'}`
    )
  }
  process.exitCode = failed ? 1 : 0
}
