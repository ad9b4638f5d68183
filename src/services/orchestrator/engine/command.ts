/** Runs a short program through the platform and collects its output: git, check and coverage commands, version probes. */
import type { EnginePlatform } from './types.js'

export interface CommandResult {
  code: number | null
  stdout: string
  stderr: string
  /** Set when the program could not be started at all (e.g. ENOENT). */
  spawnError?: string
}

export function runCommand(
  platform: Pick<EnginePlatform, 'spawn'>,
  command: string,
  args: readonly string[],
  options: { cwd: string; input?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv }
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = platform.spawn(command, args, {
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.env ? { env: options.env } : {})
    })
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    let settled = false
    const finish = (result: CommandResult): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(result)
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      finish({
        code: null,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: `${Buffer.concat(stderr).toString('utf8')}\n${command} timed out`
      })
    }, options.timeoutMs ?? 30_000)
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.on('error', (error) => finish({ code: null, stdout: '', stderr: '', spawnError: error.message }))
    child.on('close', (code) =>
      finish({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') })
    )
    // A child that exits before reading stdin makes the write fail with EPIPE; its exit code says what happened.
    child.stdin?.on('error', () => {})
    child.stdin?.end(options.input ?? '')
  })
}
