/**
 * The stand-alone measurement scripts `npm run bench` runs after the services' HTTP rows, each in
 * its own process with bounded arguments, each reporting its rows through BENCH_RESULT_FILE
 * (harness.ts `reportRows`) and written as its own section of docs/benchmarks.md.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fmt, root, stop, type ScriptRow } from './harness.js'

export interface BenchScript {
  /** Name for `--only`. */
  id: string
  /** Section heading in docs/benchmarks.md. */
  title: string
  file: string
  args?: string[]
  env?: Record<string, string>
  /** The process is killed (and the section says so) after this long. */
  timeoutMs: number
}

export const SCRIPTS: BenchScript[] = [
  { id: 'mcp', title: 'MCP start-up', file: 'mcp-initialize.ts', args: ['10'], timeoutMs: 90_000 },
  { id: 'dashboard', title: 'Dashboards', file: 'dashboard.ts', args: ['all', '3'], timeoutMs: 180_000 },
  { id: 'terminal-chat', title: 'Terminal and chat', file: 'terminal-chat.ts', env: { BENCH_SECONDS: '6' }, timeoutMs: 120_000 },
  { id: 'identity-auth', title: 'Identity: OIDC and audit', file: 'identity-auth.ts', env: { BENCH_SECONDS: '3' }, timeoutMs: 120_000 },
  { id: 'watchdog', title: 'Job watchdog', file: 'orchestrator-watchdog.ts', args: ['20'], timeoutMs: 180_000 },
  { id: 'orphan', title: 'Job death seen by a server', file: 'orchestrator-orphan.ts', args: ['10'], timeoutMs: 180_000 },
  {
    id: 'run-flows-merge',
    title: 'Run flows and merge queue',
    file: 'run-flows-merge.ts',
    env: { BENCH_SECONDS: '4' },
    timeoutMs: 120_000
  },
  // 100 flows take minutes while each job is a process start: the full run measures 20 (100 by hand).
  { id: 'run-flows-e2e', title: 'Run flows end to end', file: 'run-flows-e2e.ts', args: ['20'], timeoutMs: 300_000 },
  // Installs the pinned agent CLIs into their cache on first use (npm registry).
  { id: 'agent-drivers', title: 'Agent drivers', file: 'agent-drivers.ts', args: ['6'], timeoutMs: 600_000 },
  { id: 'socket-spam', title: 'Socket.IO abuse', file: 'socket-spam.ts', args: ['--seconds', '6'], timeoutMs: 90_000 }
]

export interface ScriptOutcome {
  script: BenchScript
  seconds: number
  rows: ScriptRow[]
  /** Why there are no rows (exit code, timeout), with the end of the script's output. */
  failure?: string
}

/** Runs one script as a child process (`node --import tsx`), bounded by its timeout. */
export async function runScript(script: BenchScript): Promise<ScriptOutcome> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `quartet-bench-${script.id}-`))
  const resultFile = path.join(dir, 'rows.json')
  const started = performance.now()
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench', script.file), ...(script.args ?? [])], {
    cwd: root,
    env: { ...process.env, ...(script.env ?? {}), BENCH_RESULT_FILE: resultFile },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    void stop(child)
  }, script.timeoutMs)
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)))
  clearTimeout(timer)
  const seconds = (performance.now() - started) / 1000
  try {
    if (!timedOut && code === 0 && fs.existsSync(resultFile)) {
      return { script, seconds, rows: JSON.parse(fs.readFileSync(resultFile, 'utf8')) as ScriptRow[] }
    }
    const why = timedOut
      ? `killed after ${script.timeoutMs / 1000} s`
      : code === 0
        ? 'exited without reporting rows'
        : `exited with ${code}`
    const tail = output.trim().split('\n').slice(-3).join(' ').slice(-300)
    return { script, seconds, rows: [], failure: `${why}: ${tail}` }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

function metricsText(metrics: Record<string, string | number>): string {
  return Object.entries(metrics)
    .map(([k, v]) => `${k}: ${typeof v === 'number' ? fmt(v, Number.isInteger(v) || Math.abs(v) >= 100 ? 0 : 1) : v}`)
    .join(', ')
}

const escape = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** One section per script: its rows with target and met, or a line saying why it has none. */
export function scriptSections(outcomes: ScriptOutcome[]): string[] {
  const lines: string[] = []
  for (const { script, seconds, rows, failure } of outcomes) {
    const command = `node --import tsx bench/${[script.file, ...(script.args ?? [])].join(' ')}`
    const env = Object.entries(script.env ?? {})
      .map(([k, v]) => `${k}=${v} `)
      .join('')
    lines.push(`## ${script.title}`, '', `\`${env}${command}\` (\`--only ${script.id}\`), ${fmt(seconds)} s.`, '')
    if (failure) {
      lines.push(`**Not measured** — the script ${escape(failure)}`, '')
      continue
    }
    lines.push('| Service | Scenario | Result | Target | Met |', '|---|---|---|---|---|')
    for (const { service, name, result } of rows) {
      const skipped = 'skipped' in result.metrics
      const met = skipped ? 'skipped' : result.pass === undefined ? '—' : result.pass ? 'yes' : '**no**'
      lines.push(`| ${service} | ${escape(name)} | ${escape(metricsText(result.metrics))} | ${result.targetText ?? '—'} | ${met} |`)
    }
    lines.push('')
  }
  return lines
}
