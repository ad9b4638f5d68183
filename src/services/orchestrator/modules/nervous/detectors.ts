/**
 * The nervous system's detectors: each looks at one symptom of an agent or run going wrong and
 * answers findings. Silence is never a symptom: an agent waiting on a long command (no output,
 * no heartbeat change) is left alone; only wall time past its limit, output growing too fast, the
 * same failure line over and over, repeated NO_GO endings, spend and disk space count.
 */
import fs from 'node:fs'
import type { ProjectConfig } from '../../project/config-schema.js'
import type { ActiveSprint, Risk, RunningTask } from '../../state/nervous.repository.js'

export interface Finding {
  type: string
  detector: string
  subject: string
  description: string
  risk: Risk
  evidence: Record<string, unknown>
  recommendation: { action: 'kill-task' | 'kill-job' | 'free-disk'; target: string | null; description: string }
}

export type NervousConfig = ProjectConfig['nervous']

/**
 * Past nervous.wall_time_seconds and still producing output since the previous tick: a runaway.
 * A task past the limit whose output stands still is waiting (a long build, a sleep) and is left
 * to engine.task_timeout_seconds.
 */
export function wallTime(tasks: RunningTask[], grew: ReadonlySet<string>, now: Date, config: NervousConfig): Finding[] {
  const findings: Finding[] = []
  for (const task of tasks) {
    const seconds = Math.floor((now.getTime() - Date.parse(task.startedAt)) / 1000)
    if (seconds <= config.wall_time_seconds || !grew.has(task.taskId)) continue
    findings.push({
      type: 'runaway-wall-time',
      detector: 'wall-time',
      subject: task.taskId,
      description: `task ${task.taskId} has run ${seconds} s, past nervous.wall_time_seconds (${config.wall_time_seconds} s)`,
      risk: 'medium',
      evidence: { seconds, limit: config.wall_time_seconds, startedAt: task.startedAt },
      recommendation: { action: 'kill-task', target: task.taskId, description: `stop task ${task.taskId}` }
    })
  }
  return findings
}

/** Log sizes seen on the previous tick, to measure growth between ticks. */
export type LogSamples = Map<string, { bytes: number; at: number }>

/** Output growth since the previous tick: findings past the rate limit, and the tasks whose log grew at all. */
export function logGrowth(
  tasks: RunningTask[],
  logFileOf: (t: RunningTask) => string,
  samples: LogSamples,
  now: Date,
  config: NervousConfig
): { findings: Finding[]; grew: Set<string> } {
  const findings: Finding[] = []
  const grew = new Set<string>()
  const seen = new Set<string>()
  for (const task of tasks) {
    seen.add(task.taskId)
    const bytes = fs.statSync(logFileOf(task), { throwIfNoEntry: false })?.size ?? 0
    const previous = samples.get(task.taskId)
    samples.set(task.taskId, { bytes, at: now.getTime() })
    if (!previous || now.getTime() <= previous.at) continue
    if (bytes > previous.bytes) grew.add(task.taskId)
    const perMinute = Math.round(((bytes - previous.bytes) * 60_000) / (now.getTime() - previous.at))
    if (perMinute <= config.log_growth_bytes_per_minute) continue
    // Four times the limit is a flood that fills the disk: the panic guard's business.
    const flood = perMinute >= 4 * config.log_growth_bytes_per_minute
    findings.push({
      type: 'log-growth',
      detector: 'log-growth',
      subject: task.taskId,
      description: `task ${task.taskId} writes ${perMinute} bytes of log a minute (limit ${config.log_growth_bytes_per_minute})`,
      risk: flood ? 'high' : 'medium',
      evidence: { bytesPerMinute: perMinute, limit: config.log_growth_bytes_per_minute, logBytes: bytes },
      recommendation: flood
        ? { action: 'kill-job', target: task.sprintId, description: `stop the run: task ${task.taskId} floods the disk with output` }
        : { action: 'kill-task', target: task.taskId, description: `stop task ${task.taskId}` }
    })
  }
  for (const taskId of samples.keys()) if (!seen.has(taskId)) samples.delete(taskId)
  return { findings, grew }
}

const FAILURE = /\b(error|errors|failed|failure|fatal|exception|denied|not found|cannot|traceback|refused|panic)\b/i
const TAIL_BYTES = 64 * 1024
const TAIL_LINES = 200

/** The last lines of a file (at most 64 KiB read). */
export function tailLines(file: string): string[] {
  let fd: number
  try {
    fd = fs.openSync(file, 'r')
  } catch {
    return []
  }
  try {
    const size = fs.fstatSync(fd).size
    const length = Math.min(size, TAIL_BYTES)
    const buffer = Buffer.alloc(length)
    fs.readSync(fd, buffer, 0, length, size - length)
    const lines = buffer.toString('utf8').split('\n')
    if (size > length) lines.shift() // cut in the middle
    return lines.slice(-TAIL_LINES)
  } finally {
    fs.closeSync(fd)
  }
}

/** The same failing line (numbers and times ignored) repeated in a task's recent output: an agent stuck in a loop. */
export function repeatedFailure(tasks: RunningTask[], logFileOf: (t: RunningTask) => string, config: NervousConfig): Finding[] {
  const findings: Finding[] = []
  for (const task of tasks) {
    const counts = new Map<string, number>()
    for (const line of tailLines(logFileOf(task))) {
      const text = line.trim()
      if (text === '' || !FAILURE.test(text)) continue
      const key = text.replace(/\d+/g, '#').slice(0, 300)
      counts.set(key, (counts.get(key) ?? 0) + 1)
    }
    let worst: [string, number] | undefined
    for (const entry of counts) if (!worst || entry[1] > worst[1]) worst = entry
    if (!worst || worst[1] < config.loop_repeats) continue
    findings.push({
      type: 'loop',
      detector: 'repeated-failure',
      subject: task.taskId,
      description: `task ${task.taskId} repeated the same failure ${worst[1]} times: ${worst[0].slice(0, 120)}`,
      risk: 'medium',
      evidence: { line: worst[0], repeats: worst[1], threshold: config.loop_repeats },
      recommendation: {
        action: 'kill-task',
        target: task.taskId,
        description: `stop task ${task.taskId}: it is repeating a failing action`
      }
    })
  }
  return findings
}

export function repeatedNoGo(sprintId: string, noGo: { taskId: string; reason: string | null }[], config: NervousConfig): Finding[] {
  if (noGo.length < config.no_go_repeats) return []
  return [
    {
      type: 'repeated-no-go',
      detector: 'no-go',
      subject: sprintId,
      description: `${noGo.length} tasks of sprint ${sprintId} ended NO_GO`,
      risk: 'medium',
      evidence: { tasks: noGo.slice(0, 20), threshold: config.no_go_repeats },
      recommendation: { action: 'kill-job', target: sprintId, description: `stop the run of sprint ${sprintId} and review its directives` }
    }
  ]
}

export function budgetBurn(sprint: ActiveSprint, budget: ProjectConfig['budget'], now: Date, config: NervousConfig): Finding[] {
  const usd = sprint.costMicroUsd / 1_000_000
  const fractions: number[] = []
  if (budget.sprint_usd !== undefined) fractions.push(usd / budget.sprint_usd)
  if (budget.sprint_tokens !== undefined) fractions.push(sprint.tokensUsed / budget.sprint_tokens)
  const fraction = Math.max(0, ...fractions)
  if (fraction < config.burn_fraction) return []
  const minutes = sprint.startedAt ? Math.max(1 / 60, (now.getTime() - Date.parse(sprint.startedAt)) / 60_000) : null
  return [
    {
      type: 'budget-burn',
      detector: 'budget-burn',
      subject: sprint.sprintId,
      description: `sprint ${sprint.sprintId} has spent ${Math.round(fraction * 100)} % of its budget`,
      risk: 'medium',
      evidence: {
        fraction: Number(fraction.toFixed(3)),
        usd,
        tokens: sprint.tokensUsed,
        usdPerMinute: minutes === null ? null : Number((usd / minutes).toFixed(6)),
        tokensPerMinute: minutes === null ? null : Math.round(sprint.tokensUsed / minutes)
      },
      recommendation: {
        action: 'kill-job',
        target: sprint.sprintId,
        description: `stop sprint ${sprint.sprintId} before its budget runs out`
      }
    }
  ]
}

export function diskSpace(dataDir: string, now: Date, config: NervousConfig): Finding[] {
  const stats = fs.statfsSync(dataDir)
  const freeMb = Math.floor((Number(stats.bavail) * Number(stats.bsize)) / (1024 * 1024))
  if (freeMb >= config.min_free_disk_mb) return []
  const critical = freeMb < config.panic_free_disk_mb
  const floor = critical ? config.panic_free_disk_mb : config.min_free_disk_mb
  return [
    {
      type: 'disk-space',
      detector: 'disk-space',
      // One event a day at most: space is a standing condition, not a single incident.
      subject: `disk:${now.toISOString().slice(0, 10)}`,
      description: `${freeMb} MB free in the data dir ${dataDir} (below ${floor} MB)`,
      risk: critical ? 'high' : 'medium',
      evidence: { freeMb, minFreeMb: config.min_free_disk_mb, panicFreeMb: config.panic_free_disk_mb, dataDir },
      recommendation: critical
        ? { action: 'kill-job', target: null, description: 'stop the run before the disk is full' }
        : { action: 'free-disk', target: null, description: 'free space in the data dir (quartet cleanup, old logs)' }
    }
  ]
}

export const DETECTORS = ['wall-time', 'log-growth', 'repeated-failure', 'no-go', 'budget-burn', 'disk-space'] as const
