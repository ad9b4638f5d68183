import type { Command } from 'commander'
import type { CliRuntime } from '../../core/service.js'
import type { AddOptions as MemoryAdd, SearchOptions as MemorySearch } from './cli/memory.js'

import type { MergeOptions } from './cli/merge.js'
import type { ProjectOptions } from './cli/options.js'
import type { XverifyOptions } from './cli/xverify.js'

export type { ProjectOptions } from './cli/options.js'

function onProject(command: Command): Command {
  return command
    .option('--project <dir>', 'project directory (QUARTET_PROJECT, default: the working directory)')
    .option('--data-dir <dir>', 'data directory holding the database and worker logs (QUARTET_DATA_DIR)')
}

/** Runs an action and exits with its code (a database pool or a timer must not keep the CLI alive). */
function exitWith(action: () => Promise<number>): Promise<void> {
  return action().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
      process.exit(1)
    }
  )
}

/**
 * The orchestrator's terminal commands. They work on the project and the database directly,
 * through the same engine service as the HTTP control routes, so no server is needed.
 */
export function orchestratorCommands(program: Command, runtime: CliRuntime): void {
  onProject(program.command('init'))
    .description('set up a project: detect agents, write .quartet/config.json (never overwritten), a DIRECTIVES.md template')
    .action((options: ProjectOptions) => exitWith(async () => (await import('./cli/init.js')).initCommand(options)))

  onProject(program.command('plan'))
    .description('plan a sprint from DIRECTIVES.md and print its tasks')
    .option('--mode <mode>', 'auto | structured | ai (default: planner.mode of the config)')
    .option('--directive <text>', 'plan from this text instead of DIRECTIVES.md')
    .option('--force', 'replace a sprint left orphaned or killed with unfinished tasks (they are abandoned)')
    .action((options: ProjectOptions & { mode?: string; directive?: string }) =>
      exitWith(async () => (await import('./cli/plan.js')).planCommand(runtime, options))
    )

  onProject(program.command('run'))
    .description('start the planned sprint as a detached job and follow it (Ctrl-C stops following, not the run)')
    .option('--resume', 'continue the sprint a crash or a kill left unfinished')
    .option('--detach', 'start and return at once')
    .action((options: ProjectOptions & { resume?: boolean; detach?: boolean }) =>
      exitWith(async () => (await import('./cli/run.js')).runCommand(runtime, options))
    )

  onProject(program.command('status'))
    .description('the run as it really is (a dead job is never shown as running)')
    .option('--json', 'machine-readable output')
    .action((options: ProjectOptions & { json?: boolean }) =>
      exitWith(async () => (await import('./cli/status.js')).statusCommand(runtime, options))
    )

  onProject(program.command('kill'))
    .description('stop the whole run, or one task (its agent process group)')
    .argument('[task]', 'task id (s1-2) or key (2) of the newest sprint')
    .action((task: string | undefined, options: ProjectOptions) =>
      exitWith(async () => (await import('./cli/kill.js')).killCommand(runtime, task, options))
    )

  onProject(program.command('logs'))
    .description("print a task's worker log")
    .argument('<task>', 'task id (s1-2) or key (2) of the newest sprint')
    .option('-f, --follow', 'keep printing new lines while the task is active')
    .action((task: string, options: ProjectOptions & { follow?: boolean }) =>
      exitWith(async () => (await import('./cli/logs.js')).logsCommand(runtime, task, options))
    )

  onProject(program.command('review'))
    .description("each DONE task's diff against its base (a sprint, a flow or one task; default the newest sprint)")
    .argument('[ref]', 'sprint id, flow id or task id')
    .option('--stat', 'files and line counts only')
    .action((ref: string | undefined, options: ProjectOptions & { stat?: boolean }) =>
      exitWith(async () => (await import('./cli/review.js')).reviewCommand(runtime, ref, options))
    )

  onProject(program.command('merge'))
    .description('land the DONE tasks on a branch through the merge queue (dependency order, oldest first); exit 0 only if all merged')
    .argument('[ref]', 'sprint id or flow id (default the newest sprint)')
    .option('--into <branch>', 'target branch (default the current branch)')
    .option(
      '--strategy <strategy>',
      "merge (a merge commit per task), squash (one commit per task) or rebase (the task's commits replayed: linear history)",
      'merge'
    )
    .option('--resolve-with <agent>', 'a configured command agent that gets each conflict to resolve in the task worktree')
    .action((ref: string | undefined, options: MergeOptions) =>
      exitWith(async () => (await import('./cli/merge.js')).mergeCommand(runtime, ref, options))
    )

  const xverify = onProject(program.command('xverify'))
    .description('cross-verify a task or a claim by a DIFFERENT provider than its author (read-only); a CONFIRMED verdict writes a receipt')
    .argument('[task]', 'task id (s1-2) or key (2) of the newest sprint')
    .option('--claim <text>', 'verify this claim instead of a task')
    .option('--author <agent>', "the author's agent (default: the task's agent, else default_agent)")
    .option('--verifier <agent>', 'the verifier agent (a provider agent of another provider)')
    .option('--evidence <paths...>', "project files given to the verifier (default: the task's changed files)")
    .option('--json', 'machine-readable output')
    .action((task: string | undefined, options: XverifyOptions) =>
      exitWith(async () => (await import('./cli/xverify.js')).xverifyCommand(runtime, task, options))
    )
  onProject(xverify.command('verify'))
    .description("re-check a receipt's whole chain offline (receipt, settlement, manifest, claim, evidence, output)")
    .argument('<ref>', 'cross-verify-verdict:sha256:<digest>')
    .option('--json', 'machine-readable output')
    .action((ref: string, options: ProjectOptions & { json?: boolean }) =>
      exitWith(async () => (await import('./cli/xverify.js')).xverifyCheckCommand(runtime, ref, options))
    )

  onProject(program.command('cleanup'))
    .description('remove task worktrees whose work is committed and merged; keep (and list) every other one')
    .action((options: ProjectOptions) => exitWith(async () => (await import('./cli/cleanup.js')).cleanupCommand(runtime, options)))

  const memory = program.command('memory').description("the project's memory: sprint summaries, decisions, NO_GO reasons, debt and notes")
  onProject(memory.command('add'))
    .description('add an entry')
    .requiredOption('--title <text>', 'title')
    .option('--type <type>', 'memory | decision | debt | … (default memory)')
    .option('--content <text>', 'the content')
    .option('--file <path>', 'read the content from a file')
    .option('--tags <a,b>', 'comma-separated tags')
    .option('--status <status>', 'active (default), resolved, …')
    .action((options: MemoryAdd) => exitWith(async () => (await import('./cli/memory.js')).memoryAddCommand(runtime, options)))
  onProject(memory.command('search'))
    .description('full-text search, best match first, within the read budget')
    .argument('[words...]', 'words to match (none: newest entries)')
    .option('--type <a,b>', 'entry types')
    .option('--status <a,b>', 'statuses')
    .option('--sprint-min <n>', 'lowest sprint number')
    .option('--mode <mode>', 'and | or (default or)')
    .option('--limit <n>', 'at most n entries')
    .option('--cursor <token>', 'the next page of a previous search')
    .option('--json', 'the versioned view as JSON')
    .action((words: string[], options: MemorySearch) =>
      exitWith(async () => (await import('./cli/memory.js')).memorySearchCommand(runtime, words, options))
    )
  onProject(memory.command('show'))
    .description('one entry in full')
    .argument('<id>', 'entry id')
    .option('--json', 'machine-readable output')
    .action((id: string, options: ProjectOptions & { json?: boolean }) =>
      exitWith(async () => (await import('./cli/memory.js')).memoryShowCommand(runtime, id, options))
    )
  onProject(memory.command('import'))
    .description('import a folder of markdown notes (again: replaces the entries of the same files)')
    .argument('<folder>', 'folder of .md files')
    .action((folder: string, options: ProjectOptions) =>
      exitWith(async () => (await import('./cli/memory.js')).memoryImportCommand(runtime, folder, options))
    )

  onProject(program.command('doctor'))
    .description('can this machine run a sprint of this project? (git, data directory, config, agents)')
    .option('--json', 'machine-readable output')
    .action((options: ProjectOptions & { json?: boolean }) =>
      exitWith(async () => (await import('./cli/doctor.js')).doctorCommand(runtime, options))
    )

  const approvals = program.command('approvals').description('approval requests: list and show them; decide one at an interactive terminal')
  onProject(approvals.command('list'))
    .description('pending approval requests (arguments masked)')
    .option('--all', 'every category: pending, approved, denied, expired')
    .option('--json', 'machine-readable output')
    .action((options: ProjectOptions & { all?: boolean; json?: boolean }) =>
      exitWith(async () => (await import('./cli/approvals.js')).listCommand(runtime, options))
    )
  onProject(approvals.command('show'))
    .description('one approval request with its decision')
    .argument('<id>', 'approval id (apr_…)')
    .option('--json', 'machine-readable output')
    .action((id: string, options: ProjectOptions & { json?: boolean }) =>
      exitWith(async () => (await import('./cli/approvals.js')).showCommand(runtime, id, options))
    )
  onProject(approvals.command('decide'))
    .description('allow or deny a pending request: needs a terminal and the request id typed back')
    .argument('<id>', 'approval id (apr_…)')
    .argument('<decision>', 'allow | deny')
    .option('--reason <text>', 'why (recorded with the decision)')
    .action((id: string, decision: string, options: ProjectOptions & { reason?: string }) =>
      exitWith(async () => (await import('./cli/approvals.js')).decideCommand(runtime, id, decision, options))
    )

  const audit = program.command('audit').description('the audit log of the HTTP API (an HMAC chain)')
  onProject(audit.command('verify'))
    .description('walk the audit chain: the first missing, reordered or tampered record (exit 1), or ok')
    .option('--json', 'machine-readable output')
    .action((options: ProjectOptions & { json?: boolean }) =>
      exitWith(async () => (await import('./cli/audit.js')).auditVerifyCommand(runtime, options))
    )

  program
    .command('dashboard')
    .description("watch a running orchestrator in the terminal: needs-you, tasks, a task's live log, approvals (q quits)")
    .option('--project <dir>', 'project whose running server to watch (QUARTET_PROJECT, default: the working directory)')
    .option('--url <url>', 'the orchestrator to watch instead, e.g. http://127.0.0.1:3100')
    .option('--token <token>', 'its API token (QUARTET_API_TOKEN; with --project: read from the project)')
    .option('--plain', 'plain lines even on a terminal')
    .action((options: { project?: string; url?: string; token?: string; plain?: boolean }) =>
      exitWith(async () => (await import('./cli/dashboard.js')).dashboardCommand(options))
    )

  program
    .command('approval-hook')
    .description('pre-tool hook for agent CLIs (PreToolUse, Gemini BeforeTool): asks a human through Quartet; exit 0 allow, 2 block')
    .option('--project <dir>', 'project whose running server records the request (QUARTET_PROJECT, default: the working directory)')
    .option('--deadline-seconds <n>', 'block the call when no human decided within n seconds (default: until the request expires)')
    .action((options: { project?: string; deadlineSeconds?: string }) =>
      exitWith(async () => (await import('./cli/approval-hook.js')).approvalHookCommand(options))
    )

  onProject(program.command('mcp'))
    .description('MCP server on stdio for coding agents: approvals inbox (read-only), permission prompt, status, tasks, memory search')
    .action((options: ProjectOptions) =>
      exitWith(async () => (await import('./cli/mcp.js')).mcpCommand(options, (await import('./version.js')).packageVersion()))
    )
}
