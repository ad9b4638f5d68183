import assert from 'node:assert/strict'
import { runCli } from '../../../helpers/cli.js'
import { startOrchestrator, type OrchestratorHarness } from '../../../helpers/orchestrator.js'

export interface Work {
  /** Files the task's branch writes (path → content), one commit. */
  files?: Record<string, string>
  /** Or several commits, each writing its files (path → content; null removes the file). */
  commits?: Array<Record<string, string | null>>
  dependsOn?: number
  /** Completion order: smaller finished first. */
  finished: number
  /** The commits' author ("Name <email>"; default the repository's user). */
  author?: string
}

/**
 * A planned sprint whose tasks are DONE with real branches `quartet/s1/<id>` in a real
 * repository (each branched from main), as the engine leaves them.
 */
export async function doneSprint(
  work: Work[],
  config: Record<string, unknown> = {},
  env: Record<string, string> = {}
): Promise<OrchestratorHarness> {
  const directives = work
    .map((w, i) => `## Task ${i + 1}: task ${i + 1}\n${w.dependsOn ? `Depends on: ${w.dependsOn}\n` : ''}Do it.\n`)
    .join('\n')
  const orch = await startOrchestrator({ env: { QUARTET_CONTROL_MUTATIONS: '1', ...env }, config: { agents: {}, ...config }, directives })
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  const git = orch.project.git
  for (const [i, w] of work.entries()) {
    const id = `s1-${i + 1}`
    git('checkout', '-q', '-b', `quartet/s1/${id}`, 'main')
    for (const [n, files] of (w.commits ?? [w.files ?? {}]).entries()) {
      for (const [file, content] of Object.entries(files)) {
        if (content === null) git('rm', '-q', file)
        else orch.project.write(file, content)
      }
      git('add', '-A')
      git('commit', '-q', ...(w.author ? ['--author', w.author] : []), '-m', `work of ${id}${n > 0 ? ` (${n + 1})` : ''}`)
    }
    git('checkout', '-q', 'main')
    await orch.database.db
      .updateTable('orch_tasks' as never)
      .set({
        status: 'DONE',
        branch: `quartet/s1/${id}`,
        finished_at: new Date(Date.UTC(2026, 0, 1, 0, 0, w.finished)).toISOString()
      } as never)
      .where('id' as never, '=', id as never)
      .execute()
  }
  return orch
}

export function cli(orch: OrchestratorHarness, ...args: string[]) {
  const env = { QUARTET_DATA_DIR: orch.config.dataDir, DATABASE_URL: orch.config.databaseUrl ?? '', LOG_LEVEL: 'warn', NO_COLOR: '1' }
  return runCli([...args, '--project', orch.project.root], env)
}
