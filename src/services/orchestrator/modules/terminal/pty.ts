/** The PTY port: a real pseudo-terminal (`@lydell/node-pty`, prebuilt binaries) behind a narrow interface. */
import { createRequire } from 'node:module'

// Loaded on the first session: CLI commands and job processes compose the orchestrator too and never open a PTY.
const requireLazily = createRequire(import.meta.url)
let nodePty: typeof import('@lydell/node-pty') | undefined

export interface PtyProcess {
  readonly pid: number
  onData(listener: (data: string) => void): void
  onExit(listener: (exit: { exitCode: number; signal?: number }) => void): void
  write(data: string): void
  resize(cols: number, rows: number): void
  kill(signal?: string): void
}

export interface PtySpawnOptions {
  cols: number
  rows: number
  cwd: string
  env: Record<string, string>
}

export type SpawnPty = (command: string, args: readonly string[], options: PtySpawnOptions) => PtyProcess

export const spawnPty: SpawnPty = (command, args, options) => {
  nodePty ??= requireLazily('@lydell/node-pty') as typeof import('@lydell/node-pty')
  const child = nodePty.spawn(command, [...args], { name: 'xterm-256color', ...options })
  return {
    pid: child.pid,
    onData: (listener) => void child.onData(listener),
    onExit: (listener) => void child.onExit(listener),
    write: (data) => child.write(data),
    resize: (cols, rows) => child.resize(cols, rows),
    kill: (signal) => child.kill(signal)
  }
}

/** Hang-up to the session's process group (its shell and everything it started), SIGKILL after the grace. */
export function killProcessGroup(pid: number, graceMs: number): void {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pid, name)
      return true
    } catch {
      try {
        process.kill(pid, name)
        return true
      } catch {
        return false // gone
      }
    }
  }
  if (!signal('SIGHUP')) return
  signal('SIGCONT')
  setTimeout(() => signal('SIGKILL'), graceMs).unref()
}
