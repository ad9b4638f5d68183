import fs from 'node:fs'
import type { Plan, PlannedTask } from '../../../../src/services/orchestrator/engine/types.js'
import { DEFAULT_PROJECT_CONFIG, type ProjectConfig } from '../../../../src/services/orchestrator/project/config-schema.js'

/** A planned task whose description is the shell command the test executor runs. */
export function shellTask(key: string, command: string, extra: Partial<PlannedTask> = {}): PlannedTask {
  return {
    key,
    title: `task ${key}`,
    description: command,
    dependencies: [],
    files: [],
    goCriteria: [],
    noGoCriteria: [],
    priority: 'NORMAL',
    expectChange: false,
    ...extra
  }
}

export function planOf(tasks: PlannedTask[]): Plan {
  return { mode: 'structured', tasks, warnings: [] }
}

export function testConfig(overrides: { engine?: Partial<ProjectConfig['engine']>; budget?: ProjectConfig['budget'] } = {}): ProjectConfig {
  return {
    ...DEFAULT_PROJECT_CONFIG,
    engine: { ...DEFAULT_PROJECT_CONFIG.engine, kill_grace_seconds: 1, retry_base_delay_ms: 20, ...overrides.engine },
    budget: overrides.budget ?? {}
  }
}

/** True while a process exists and is not a zombie waiting to be reaped. */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** Waits until the process has ended; false when it still runs after `ms`. */
export async function waitGone(pid: number, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (processRunning(pid)) {
    if (Date.now() > deadline) return false
    await new Promise((r) => setTimeout(r, 25))
  }
  return true
}

/** The process-group ids an attempt recorded. */
export const pidsOf = (attempt: { processes: { pid: number }[] }): number[] => attempt.processes.map((p) => p.pid)
