/**
 * tsx bench/orchestrator-engine.ts [tasks] [workers]
 *
 * Per-task engine overhead: a sprint of no-op command agents (/bin/true, no change expected) run
 * by the real scheduler and executor on a SQLite state file, once in a plain directory (no
 * worktrees) and once in a git repository (one worktree and branch per task). A task's overhead
 * is its wall time from claim to its final event minus the agent's own run time; the split says
 * how much of it is spent in the executor (workspace, git, heartbeats) and how much around it
 * (scheduler writes and events). Prints median/p95 per mode and whether the targets are met.
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openDatabase } from '../src/core/db/database.js'
import { migrateToLatest } from '../src/core/db/migrations.js'
import { createExecutor } from '../src/services/orchestrator/engine/execute.js'
import { runSprint } from '../src/services/orchestrator/engine/scheduler.js'
import type { ExecuteTask, PlannedTask } from '../src/services/orchestrator/engine/types.js'
import { DEFAULT_PROJECT_CONFIG, type ProjectConfig } from '../src/services/orchestrator/project/config-schema.js'
import type { OrchestratorDb } from '../src/services/orchestrator/state/db.js'
import { orchestratorMigrations } from '../src/services/orchestrator/state/migrations.js'
import { createOrchestratorRepositories } from '../src/services/orchestrator/state/repositories.js'

export interface EngineOverhead {
  mode: 'plain' | 'worktrees'
  tasks: number
  workers: number
  sprintMs: number
  overhead: { medianMs: number; p95Ms: number }
  executorOverhead: { medianMs: number; p95Ms: number }
  agent: { medianMs: number }
  targetMs: number
  met: boolean
}

const TARGET_MS = { plain: 50, worktrees: 150 } as const

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN
}

function noOpTask(index: number): PlannedTask {
  return { key: String(index + 1), title: `no-op ${index + 1}`, description: 'nothing to do', dependencies: [], files: [], goCriteria: [], noGoCriteria: [], priority: 'NORMAL', expectChange: false }
}

export async function measureEngineOverhead(mode: EngineOverhead['mode'], tasks = 200, workers = 8): Promise<EngineOverhead> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `quartet-bench-engine-${mode}-`)))
  const root = path.join(dir, 'project')
  const dataDir = path.join(dir, 'data')
  fs.mkdirSync(root)
  fs.mkdirSync(dataDir)
  const database = await openDatabase({ sqlitePath: path.join(dataDir, 'state.db') })
  try {
    if (mode === 'worktrees') {
      for (const args of [['init', '-q', '-b', 'main'], ['config', 'user.name', 'Bench'], ['config', 'user.email', 'bench@localhost'], ['commit', '-q', '--allow-empty', '-m', 'initial']]) {
        if (spawnSync('git', args, { cwd: root }).status !== 0) throw new Error(`git ${args[0]} failed`)
      }
    }
    await migrateToLatest(database.db, [orchestratorMigrations])
    const clock = () => new Date()
    const repos = createOrchestratorRepositories(database.db as OrchestratorDb, clock)
    const config: ProjectConfig = {
      ...DEFAULT_PROJECT_CONFIG,
      agents: { noop: { kind: 'command', argv: ['/bin/true'] } },
      default_agent: 'noop',
      engine: { ...DEFAULT_PROJECT_CONFIG.engine, max_workers: workers }
    }
    const executor = createExecutor({ platform: { spawn, fetch, clock }, config, dataDir, runProviderTask: () => Promise.reject(new Error('no provider agents here')) })
    const inExecutor = new Map<string, { ms: number; agentMs: number }>()
    const executeTask: ExecuteTask = async (input) => {
      const started = performance.now()
      const outcome = await executor(input)
      inExecutor.set(input.taskId, { ms: performance.now() - started, agentMs: outcome.agentMs })
      return outcome
    }
    const projectId = await repos.projects.ensure(root)
    const { sprint } = await repos.sprints.createFromPlan(projectId, { mode: 'structured', tasks: Array.from({ length: tasks }, (_, i) => noOpTask(i)), warnings: [] }, { title: 'bench', directivesDigest: null })
    const { job } = await repos.jobs.startJob(projectId, sprint.id, { resume: false })
    const started = performance.now()
    const result = await runSprint({
      repositories: repos, projectId, sprintId: sprint.id, jobId: job.id, executeTask, config, projectRoot: root, dataDir,
      gitMode: mode === 'worktrees', clock, signal: new AbortController().signal
    })
    const sprintMs = performance.now() - started
    if (result.counts.DONE !== tasks) throw new Error(`expected ${tasks} DONE tasks, got ${JSON.stringify(result.counts)}`)

    const claimed = new Map<string, number>()
    const overheads: number[] = []
    for (const event of await repos.events.readAfter(projectId, 0, 100 * tasks, { sprintId: sprint.id })) {
      if (!event.taskId) continue
      if (event.type === 'task_claimed') claimed.set(event.taskId, Date.parse(event.createdAt))
      if (event.type === 'task_done') overheads.push(Date.parse(event.createdAt) - claimed.get(event.taskId)! - inExecutor.get(event.taskId)!.agentMs)
    }
    const executorOverheads = [...inExecutor.values()].map((run) => run.ms - run.agentMs)
    const median = quantile(overheads, 0.5)
    return {
      mode, tasks, workers, sprintMs: Math.round(sprintMs),
      overhead: { medianMs: median, p95Ms: quantile(overheads, 0.95) },
      executorOverhead: { medianMs: Math.round(quantile(executorOverheads, 0.5)), p95Ms: Math.round(quantile(executorOverheads, 0.95)) },
      agent: { medianMs: quantile([...inExecutor.values()].map((run) => run.agentMs), 0.5) },
      targetMs: TARGET_MS[mode],
      met: median < TARGET_MS[mode]
    }
  } finally {
    await database.close()
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
    console.log(`${mode.padEnd(9)} ${r.tasks} tasks × ${r.workers} workers in ${(r.sprintMs / 1000).toFixed(1)} s: overhead median ${r.overhead.medianMs} ms, p95 ${r.overhead.p95Ms} ms ` +
      `(in the executor: median ${r.executorOverhead.medianMs} ms, p95 ${r.executorOverhead.p95Ms} ms; agent median ${r.agent.medianMs} ms); ` +
      `target median < ${r.targetMs} ms: ${r.met ? 'met' : 'MISSED'}`)
  }
  process.exitCode = failed ? 1 : 0
}
