/**
 * The one way the orchestrator runs git: argv only (never a shell), no prompts, no optional
 * index locks (a read such as `status` would otherwise refresh and rewrite the index), the C
 * locale so messages can be matched, and paths printed as they are (`core.quotePath=false`).
 */
import { runCommand, type CommandResult } from './command.js'
import type { EnginePlatform } from './types.js'

export type GitResult = CommandResult

/** Long enough for a checkout of a large repository; a hung git is still killed. */
const GIT_TIMEOUT_MS = 300_000

export interface Git {
  /** Runs git; the result says how it went (a non-zero exit is not thrown). */
  run(cwd: string, args: readonly string[], input?: string, env?: Record<string, string>): Promise<GitResult>
  /** Runs git and answers its stdout; a failure throws `git <command> failed: <stderr>`. */
  git(cwd: string, args: readonly string[], input?: string, env?: Record<string, string>): Promise<string>
  /** Whether `root` is inside a git work tree. */
  isRepo(root: string): Promise<boolean>
}

export function createGit(platform: Pick<EnginePlatform, 'spawn'>): Git {
  function run(cwd: string, args: readonly string[], input?: string, env?: Record<string, string>): Promise<GitResult> {
    return runCommand(platform, 'git', ['-c', 'core.quotePath=false', ...args], {
      cwd,
      // Read per call: the environment (HOME, GIT_CONFIG_GLOBAL …) may change while the process runs.
      env: { ...process.env, ...env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
      timeoutMs: GIT_TIMEOUT_MS,
      ...(input !== undefined ? { input } : {})
    })
  }

  async function git(cwd: string, args: readonly string[], input?: string, env?: Record<string, string>): Promise<string> {
    const result = await run(cwd, args, input, env)
    if (result.code !== 0) {
      const why = (result.spawnError ?? (result.stderr || result.stdout)).trim() || `exit ${result.code}`
      throw new Error(`git ${args[0]} failed: ${why}`)
    }
    return result.stdout
  }

  async function isRepo(root: string): Promise<boolean> {
    const result = await run(root, ['rev-parse', '--is-inside-work-tree'])
    return result.code === 0 && result.stdout.trim() === 'true'
  }

  return { run, git, isRepo }
}
