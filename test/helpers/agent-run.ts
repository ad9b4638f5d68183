// Runs a real agent CLI for the contract tests (test/agents/): in a temporary git repository, with a temporary
// HOME and TMPDIR, an environment built from scratch (nothing of the test process's own environment leaks in but
// PATH), bounded by a timeout, in its own process group that is killed when the CLI exits (so no MCP server,
// shell or helper it started is left behind) — and, by a small watchdog process, when the test process itself
// dies (a test runner that kills a timed-out test file does not give it a chance to clean up).
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { ModelServer, RecordedRequest } from './model-server/index.js'

export interface Workspace {
  root: string
  /** The CLI's HOME (its settings, sessions and caches land here). */
  home: string
  /** The CLI's TMPDIR. */
  tmp: string
  /** A git repository with one commit (README.md = "hello\n"); the CLI's working directory. */
  repo: string
  /** A path outside the repository (and outside HOME and TMPDIR), for "write outside the worktree" scenarios. */
  outside: string
  git(...args: string[]): string
  read(relative: string): string | undefined
  cleanup(): void
}

export function makeWorkspace(files: Record<string, string> = {}): Workspace {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-agent-'))
  const home = path.join(root, 'home')
  const tmp = path.join(root, 'tmp')
  const repo = path.join(root, 'repo')
  const outside = path.join(root, 'outside')
  for (const dir of [home, tmp, repo, outside]) fs.mkdirSync(dir)
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Quartet Test', '-c', 'user.email=test@quartet.invalid', ...args], {
      cwd: repo,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: home, GIT_CONFIG_NOSYSTEM: '1' }
    })
  git('init', '-q', '-b', 'main')
  fs.writeFileSync(path.join(repo, 'README.md'), 'hello\n')
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repo, name)), { recursive: true })
    fs.writeFileSync(path.join(repo, name), content)
  }
  git('add', '-A')
  git('commit', '-q', '-m', 'initial')
  return {
    root,
    home,
    tmp,
    repo,
    outside,
    git,
    read: (relative) => {
      const file = path.resolve(repo, relative)
      return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined
    },
    cleanup: () => fs.rmSync(root, { recursive: true, force: true })
  }
}

/** The environment every CLI run starts from: PATH (for node and git), the workspace's HOME and TMPDIR, no colours. */
export function baseEnv(ws: Workspace): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: ws.home, TMPDIR: ws.tmp, LANG: 'C.UTF-8', TERM: 'dumb', NO_COLOR: '1', USER: 'quartet' }
}

export interface AgentRun {
  code: number | null
  signal: NodeJS.Signals | null
  timedOut: boolean
  stdout: string
  stderr: string
  /** Wall time from spawn to exit. */
  ms: number
  /** performance.now() at spawn (compare with the model server's receivedAt). */
  startedAt: number
  /** Stdout lines that parse as JSON objects, in order. */
  events: any[]
}

const running = new Set<number>()
process.once('exit', () => {
  for (const pid of running) killGroup(pid)
})

// Kills the process group GROUP as soon as the process PARENT is gone (and then removes the folder LEFTOVER, if
// given); exits when the group is gone.
const WATCHDOG = `
const [parent, group] = process.argv.slice(1, 3).map(Number)
const leftover = process.argv[3]
const alive = (pid) => { try { process.kill(pid, 0); return true } catch { return false } }
const timer = setInterval(() => {
  if (!alive(-group)) return clearInterval(timer)
  if (alive(parent)) return
  try { process.kill(-group, 'SIGKILL') } catch {}
  clearInterval(timer)
  if (leftover) setTimeout(() => require('node:fs').rmSync(leftover, { recursive: true, force: true }), 500)
}, 250)
`

function watch(group: number, leftover?: string) {
  const args = ['-e', WATCHDOG, String(process.pid), String(group), ...(leftover ? [leftover] : [])]
  spawn(process.execPath, args, { detached: true, stdio: 'ignore' }).unref()
}

function killGroup(pid: number) {
  try {
    process.kill(-pid, 'SIGKILL')
  } catch {
    // Already gone.
  }
}

/**
 * Runs the CLI to completion (or kills it after `timeoutMs`); stdin is /dev/null. `leftover` (a workspace root) is
 * removed by the watchdog should the test process die while the CLI runs.
 */
export function runAgent(
  bin: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number; leftover?: string }
): Promise<AgentRun> {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now()
    const child = spawn(bin, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const pid = child.pid
    if (pid) {
      running.add(pid)
      watch(pid, options.leftover)
    }
    const timer = setTimeout(() => {
      timedOut = true
      if (pid) killGroup(pid)
    }, options.timeoutMs ?? 45_000)
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (pid) {
        // Whatever the CLI started and left running (MCP servers, shells, watchers) goes with it.
        killGroup(pid)
        running.delete(pid)
      }
      resolve({
        code,
        signal,
        timedOut,
        stdout,
        stderr,
        ms: Math.round(performance.now() - startedAt),
        startedAt,
        events: jsonLines(stdout)
      })
    })
  })
}

export function jsonLines(text: string): any[] {
  const out: any[] = []
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue
    try {
      out.push(JSON.parse(line))
    } catch {
      // Not a JSON line.
    }
  }
  return out
}

/** Milliseconds from spawn to the CLI's first request to the model server (its start-up time). */
export function startupMs(run: AgentRun, server: ModelServer): number | undefined {
  const first = server.requests.find((r) => r.request !== undefined)
  return first ? Math.round(first.receivedAt - run.startedAt) : undefined
}

/** A failure message that shows what the CLI did: exit, output tails and the requests the model server saw. */
export function explain(run: AgentRun, server?: ModelServer): string {
  const requests = (server?.requests ?? []).map(describeRequest).join('\n')
  return [
    `exit ${run.code}${run.signal ? ` (${run.signal})` : ''}${run.timedOut ? ' TIMED OUT' : ''} after ${run.ms} ms`,
    `stdout (tail):\n${run.stdout.slice(-3000)}`,
    `stderr (tail):\n${run.stderr.slice(-2000)}`,
    `requests:\n${requests}`
  ].join('\n')
}

function describeRequest(r: RecordedRequest): string {
  return `  #${r.seq} ${r.method} ${r.url} -> ${r.status} ${JSON.stringify(r.answer)} tools=${r.request?.tools.length ?? '-'}`
}

/**
 * A shell command for a CLI's pre-tool hook that appends its stdin (one JSON line per call) to
 * $HOME/../hook-inputs.jsonl (the workspace root) and decides by a marker in the call: BLOCK-ME → exit 2 with
 * "blocked by the approver" on stderr; FAIL-ME → exit 1 with "deny?" on stderr; ALLOW-ME → prints `allow` (the
 * CLI's "allow" answer) and exits 0; anything else → exit 0 without output.
 */
export function markerHook(allow = ''): string {
  return [
    'input=$(cat)',
    `{ printf '%s' "$input" | tr '\\n' ' '; echo; } >> "$HOME/../hook-inputs.jsonl"`,
    'case "$input" in',
    `  *BLOCK-ME*) echo "blocked by the approver" >&2; exit 2;;`,
    `  *FAIL-ME*) echo "deny?" >&2; exit 1;;`,
    `  *ALLOW-ME*) echo '${allow}'; exit 0;;`,
    'esac',
    'exit 0'
  ].join('\n')
}

/** The hook inputs markerHook recorded, in call order. */
export function hookInputs(ws: Workspace): any[] {
  const file = path.join(ws.root, 'hook-inputs.jsonl')
  return fs.existsSync(file) ? jsonLines(fs.readFileSync(file, 'utf8')) : []
}
