/**
 * Test coverage per sprint (`GET /api/coverage`): the project's `coverage.command` runs in the
 * project after a sprint, a percentage is read from what it prints, and the value is stored with
 * the sprint. recordSprintCoverage is what the sprint job calls once the sprint has ended.
 */
import { runCommand } from '../../engine/command.js'
import type { CheckCommand, EnginePlatform } from '../../engine/types.js'
import type { ProjectConfig } from '../../project/config-schema.js'
import type { CoverageRecord } from '../../state/coverage.repository.js'
import type { InsightRepositories } from './insight-repositories.js'

const OUTPUT_TAIL_CHARS = 4000
const HISTORY_SPRINTS = 100
const NUMBER = String.raw`(\d{1,3}(?:\.\d+)?)`
// Test runners colour their summaries; the escapes would split "All files" from its number.
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

/**
 * Accepted formats, most specific first; within one format the last match wins (the summary
 * comes after the per-file lines):
 *   1. istanbul / nyc / jest / vitest text table: `All files | 83.5 | …` (the statements column)
 *   2. coverage.py and similar: a `TOTAL … 83%` line (its last percentage)
 *   3. lcov / genhtml summary: `lines......: 83.5% (…)`
 *   4. Go and generic: `coverage: 83.5%` (also `Coverage 83.5 %`, `total coverage = 83.5%`)
 *   5. a last non-empty line that is only a number, with or without `%`
 */
const FORMATS: RegExp[] = [
  new RegExp(String.raw`^\s*All files\s*\|\s*${NUMBER}`, 'gim'),
  new RegExp(String.raw`^\s*TOTAL\b.*?${NUMBER}\s*%\s*$`, 'gim'),
  new RegExp(String.raw`^\s*lines\.*\s*:\s*${NUMBER}\s*%`, 'gim'),
  new RegExp(String.raw`coverage\b[^0-9\n]{0,20}?${NUMBER}\s*%`, 'gi')
]

export function parseCoveragePercent(output: string): number | null {
  const text = output.replace(ANSI_COLOUR, '')
  for (const format of FORMATS) {
    const matches = [...text.matchAll(format)]
    const value = matches.length > 0 ? Number(matches[matches.length - 1]![1]) : NaN
    if (Number.isFinite(value) && value <= 100) return value
  }
  const lastLine =
    text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .pop() ?? ''
  const bare = new RegExp(String.raw`^${NUMBER}\s*%?$`).exec(lastLine)
  const value = bare ? Number(bare[1]) : NaN
  return Number.isFinite(value) && value <= 100 ? value : null
}

export interface RecordCoverageInput {
  repositories: InsightRepositories
  projectId: number
  sprintId: string
  projectRoot: string
  config: ProjectConfig
  platform: EnginePlatform
}

/**
 * Runs the coverage command (a string through /bin/sh -c, an array as argv) in the project root
 * and stores the percentage it printed. The value is kept only when the command exited 0: a
 * failing test run's percentage would mislead. Returns null when no command is configured.
 */
export async function recordSprintCoverage(input: RecordCoverageInput): Promise<CoverageRecord | null> {
  const command: CheckCommand | undefined = input.config.coverage.command
  if (command === undefined) return null
  const [program, ...args] = typeof command === 'string' ? ['/bin/sh', '-c', command] : command
  const result = await runCommand(input.platform, program!, args, {
    cwd: input.projectRoot,
    timeoutMs: input.config.check.timeout_seconds * 1000,
    env: { ...process.env, QUARTET_SPRINT_ID: input.sprintId }
  })
  const output = `${result.stdout}\n${result.stderr}${result.spawnError ? `\n${result.spawnError}` : ''}`
  const record: CoverageRecord = {
    sprintId: input.sprintId,
    projectId: input.projectId,
    coverage: result.code === 0 ? parseCoveragePercent(output) : null,
    command,
    exitCode: result.code,
    outputTail: output.trim().slice(-OUTPUT_TAIL_CHARS)
  }
  await input.repositories.coverage.record(record)
  await input.repositories.events.append(input.projectId, {
    type: 'coverage_recorded',
    sprintId: input.sprintId,
    data: { coverage: record.coverage, exitCode: record.exitCode }
  })
  return record
}

export interface CoverageView {
  history: Array<{ sprintId: string; coverage: number | null; tasks: number; completed: number }>
  budget: { perSprint: number | null }
}

/** Every recent sprint, oldest first; coverage is null where none was measured. */
export async function coverageHistory(repositories: InsightRepositories, projectId: number, config: ProjectConfig): Promise<CoverageView> {
  const sprints = (await repositories.sprints.list(projectId, HISTORY_SPRINTS)).reverse()
  const tasks = await repositories.insight.tasksOfSprints(sprints.map((s) => s.id))
  const measured = new Map((await repositories.coverage.listForProject(projectId)).map((row) => [row.sprintId, row.coverage]))
  return {
    history: sprints.map((sprint) => {
      const own = tasks.filter((t) => t.sprintId === sprint.id)
      return {
        sprintId: sprint.id,
        coverage: measured.get(sprint.id) ?? null,
        tasks: own.length,
        completed: own.filter((t) => t.status === 'DONE').length
      }
    }),
    budget: { perSprint: config.coverage.budget_per_sprint ?? null }
  }
}
