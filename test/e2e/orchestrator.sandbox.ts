/** A temporary git project with shell-script agents and its own data dir / database, for the orchestrator CLI e2e tests. */
import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after } from 'node:test'
import { CLI_ENTRY, isolatedDatabaseEnv, runCli } from '../helpers/cli.js'

// Agents are shell scripts: `edit` changes a file, `noop` changes nothing, `slow` sleeps 120 s (long enough on a loaded machine)
// (or edits at once when the `quick` flag exists), `waiter` edits once the `go` flag exists, `spawner` leaves a setsid grandchild.
const SCRIPTS: Record<string, string> = {
  edit: 'echo "agent for $1 in $(pwd)"; echo "$1 was here" > "work-$1.txt"; echo "changed work-$1.txt"',
  noop: 'echo "looked around, nothing to change"',
  slow:
    'if [ -f "$2/quick" ]; then echo "$1 again" > "work-$1.txt"; exit 0; fi; ' +
    'echo $$ > "$2/slow.pid"; sleep 120; echo late > "work-$1.txt"',
  // About 1 MB of output, then one file changed.
  chatty:
    'i=0; while [ $i -lt 10000 ]; do echo "chatty line $i ........................................................................"; ' +
    'i=$((i+1)); done; echo "$1 chatted" > "work-$1.txt"; echo "chatty last line"',
  // Leaves a grandchild in its own session (setsid: outside the agent's process group), then sleeps.
  spawner: 'setsid sleep 300 > /dev/null 2>&1 & echo $! > "$2/grandchild.pid"; echo $$ > "$2/slow.pid"; sleep 120',
  waiter: 'i=0; while [ ! -f "$2/go" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; echo "$1 done" > "work-$1.txt"'
}

export interface Sandbox {
  root: string
  state: string
  cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>
  git(...args: string[]): string
  statusJson(): Promise<any>
  /** Starts a CLI command without waiting (killed at the end of the test file if still running). */
  spawnCli(...args: string[]): { output(): string; done: Promise<{ code: number | null; stdout: string }> }
  env: Record<string, string>
  /** The shell-script agents, as config entries. */
  agents: Record<string, unknown>
}

const isPid = (value: number) => Number.isSafeInteger(value) && value > 1

/** Pids of jobs and agents seen: SIGKILLed (with their groups) when the test file ends. */
export const tracked = new Set<number>()
after(() => {
  // Whatever a failed test left behind: jobs and agents are group leaders. Only real pids: kill(0) and kill(-0) signal
  // this test's own process group, which is the whole test run (a pid read from a half-written file was 0 once).
  for (const pid of tracked) {
    if (!isPid(pid)) continue
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL')
      } catch {
        /* gone */
      }
    }
  }
})

/**
 * The pid a test agent wrote into `file`, or null while there is none yet: the shell creates the file before it writes
 * the number (`echo $$ > file`: one write, ending in a newline), so a file that exists may still be empty.
 */
export function pidIn(file: string): number | null {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
  if (!/^\d+\n$/.test(text)) return null
  const pid = Number(text)
  return isPid(pid) ? pid : null
}

export async function sandbox(options: { config?: unknown; directives?: string; init?: boolean } = {}): Promise<Sandbox> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-e2e-orch-')))
  const root = path.join(base, 'project')
  const state = path.join(base, 'state')
  const dataDir = path.join(base, 'data')
  for (const dir of [root, state, path.join(base, 'agents')]) fs.mkdirSync(dir, { recursive: true })
  for (const [name, script] of Object.entries(SCRIPTS)) fs.writeFileSync(path.join(base, 'agents', `${name}.sh`), `${script}\n`)
  const database = await isolatedDatabaseEnv('orch')
  after(async () => {
    await database.cleanup()
    fs.rmSync(base, { recursive: true, force: true })
  })
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' })
  git('init', '-q', '-b', 'main')
  git('config', 'user.email', 'dev@example.com')
  git('config', 'user.name', 'Dev')
  fs.writeFileSync(path.join(root, 'README.md'), '# demo\n')
  git('add', '-A')
  git('commit', '-q', '-m', 'initial')
  const agents = Object.fromEntries(
    Object.keys(SCRIPTS).map((name) => [
      name,
      { kind: 'command', argv: ['/bin/sh', path.join(base, 'agents', `${name}.sh`), '{taskId}', state] }
    ])
  )
  if (options.config !== undefined || options.directives !== undefined) {
    fs.mkdirSync(path.join(root, '.quartet'), { recursive: true })
    fs.writeFileSync(
      path.join(root, '.quartet', 'config.json'),
      JSON.stringify(options.config ?? { agents, default_agent: 'edit', engine: { kill_grace_seconds: 1 } }, null, 2)
    )
    fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), '.quartet/\n')
  }
  if (options.directives !== undefined) fs.writeFileSync(path.join(root, 'DIRECTIVES.md'), options.directives)
  const env = { QUARTET_DATA_DIR: dataDir, DATABASE_URL: database.DATABASE_URL ?? '', LOG_LEVEL: 'warn', NO_COLOR: '1' }
  const box: Sandbox = {
    root,
    state,
    env,
    git,
    cli: (...args) => runCli([...args, '--project', root], env),
    async statusJson() {
      const result = await box.cli('status', '--json')
      // 0 fine, 1 a task is NO_GO, 2 the sprint is orphaned or aborted (the JSON is printed in every case).
      assert.ok([0, 1, 2].includes(result.code ?? -1), result.stderr)
      const status = JSON.parse(result.stdout)
      if (status.job?.pid) tracked.add(status.job.pid)
      return status
    },
    spawnCli(...args) {
      const child = spawn(process.execPath, ['--import', 'tsx', CLI_ENTRY, ...args, '--project', root], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe']
      })
      tracked.add(child.pid!)
      let stdout = ''
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString()
      })
      child.stderr.on('data', (d: Buffer) => {
        stdout += d.toString()
      })
      return { output: () => stdout, done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout }))) }
    },
    agents
  }
  return box
}

/** true while the process exists and is not a zombie. */
export function processLives(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** Live (not zombie) processes of a process group, read from /proc. */
export function liveMembers(pgid: number): number[] {
  const members: number[] = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(group) === pgid && state !== 'Z') members.push(Number(entry))
    } catch {
      /* exited meanwhile */
    }
  }
  return members
}

export async function eventually<T>(
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  ms: number,
  /** What was awaited; a function is called at the timeout, so it can describe the state then. */
  what: string | (() => string)
): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

export const TWO_TASKS = '# Demo sprint\n\n## Task 1: first\nWrite a note.\n\n## Task 2: second\nDepends on: 1\nWrite another note.\n'
