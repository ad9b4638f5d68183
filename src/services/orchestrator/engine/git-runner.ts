/**
 * Git through platform.spawn with argv only: never a shell, never a prompt, C locale so that
 * messages can be matched.
 */
import type { EnginePlatform } from './types.js'

export interface GitResult {
  code: number | null
  stdout: string
  stderr: string
}

export function createGitRunner(platform: Pick<EnginePlatform, 'spawn'>) {
  function run(cwd: string, args: string[], input?: string): Promise<GitResult> {
    return new Promise((resolve) => {
      const child = platform.spawn('git', args, {
        cwd,
        stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        // Reading commands (status) would otherwise refresh and rewrite the index under a lock.
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' }
      })
      const out: Buffer[] = []
      const err: Buffer[] = []
      child.stdout?.on('data', (chunk: Buffer) => out.push(chunk))
      child.stderr?.on('data', (chunk: Buffer) => err.push(chunk))
      // A git that exits before reading all of its input is reported by its exit code, not by EPIPE.
      child.stdin?.on('error', () => {})
      child.stdin?.end(input)
      child.on('error', (error) => resolve({ code: null, stdout: '', stderr: error.message }))
      child.on('close', (code) =>
        resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') })
      )
    })
  }

  async function git(cwd: string, args: string[], input?: string): Promise<string> {
    const result = await run(cwd, args, input)
    if (result.code !== 0) throw new Error(`git ${args[0]} failed: ${(result.stderr || result.stdout).trim() || `exit ${result.code}`}`)
    return result.stdout
  }

  return { run, git }
}
export type GitRunner = ReturnType<typeof createGitRunner>
