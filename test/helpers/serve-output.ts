import assert from 'node:assert/strict'
import { after } from 'node:test'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CLI_ENTRY, isolatedDatabaseEnv, type RunningCli } from './cli.js'

export const SERVICES = ['orchestrator', 'trips', 'feed', 'marketplace'] as const
const root = path.resolve(import.meta.dirname, '..', '..')

/** A data dir (and, on PostgreSQL, a schema: `prefix` is part of its name) of the calling test file, with every port free. */
export async function serveSandbox(prefix: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `quartet-e2e-${prefix}-`))
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }))
  const database = await isolatedDatabaseEnv(prefix)
  after(() => database.cleanup())
  return {
    root: dataDir,
    env: {
      QUARTET_DATA_DIR: dataDir,
      ORCHESTRATOR_PORT: '0',
      TRIPS_PORT: '0',
      FEED_PORT: '0',
      FEED_CLIENT_PORT: '0',
      MARKETPLACE_PORT: '0',
      PORT: undefined,
      JWT_SECRET: undefined,
      MONGODB_URI: undefined,
      QUARTET_API_TOKEN: undefined,
      DATABASE_URL: database.DATABASE_URL
    },
    /** `serve [services…]`, the orchestrator serving the data dir as its project. */
    args: (...services: string[]) => ['serve', ...services, '--project', dataDir]
  }
}

/** The service's URL, port and docs in the ready record, and a listening record of its own. */
export function assertListening(cli: RunningCli, name: string): void {
  const url = cli.urls[name]
  assert.match(url ?? '', /^http:\/\/127\.0\.0\.1:\d+$/, `${name} in the ready record: ${JSON.stringify(cli.ready)}`)
  const where = (cli.ready.services as Record<string, { port: number; docs: string }>)[name]
  assert.equal(where?.port, Number(new URL(url as string).port))
  assert.equal(where?.docs, `${url}/docs`)
  const listening = cli.records().find((r) => r.service === name && r.url === url)
  assert.equal(listening?.port, where?.port, `${name}: a record of its own with its url and port`)
}

/** Stops the server and checks what a log collector would: every stdout line one JSON record, the shutdown included. */
export async function stopAndCheck(cli: RunningCli): Promise<void> {
  assert.equal(await cli.stop('SIGTERM'), 0, cli.output())
  assert.deepEqual(cli.invalidLines(), [], 'every stdout line is one JSON record')
  const messages = cli.records().map((r) => r.msg)
  assert.ok(messages.includes('SIGTERM received: draining requests and closing…'), messages.join('\n'))
  assert.equal(messages.at(-1), 'Stopped.')
  for (const record of cli.records()) assert.equal(typeof record.level, 'number', JSON.stringify(record))
}

/** A spawned process whose stdout and stderr are collected as text, with a wait for a pattern in it. */
export function collect(command: string, args: string[], env: Record<string, string | undefined>) {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
  let text = ''
  child.stdout.on('data', (d: Buffer) => {
    text += d.toString()
  })
  child.stderr.on('data', (d: Buffer) => {
    text += d.toString()
  })
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  after(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  // A terminal ends lines with \r\n.
  const lines = () => text.replace(/\r\n/g, '\n')
  return {
    child,
    text: lines,
    closed,
    async waitFor(pattern: RegExp, timeoutMs = 60_000): Promise<void> {
      const deadline = Date.now() + timeoutMs
      while (!pattern.test(lines())) {
        if (child.exitCode !== null) assert.fail(`exited (${child.exitCode}) before ${pattern}:\n${text}`)
        if (Date.now() > deadline) assert.fail(`no ${pattern} in ${timeoutMs} ms:\n${text}`)
        await new Promise((r) => setTimeout(r, 100))
      }
    }
  }
}

export const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0

/** `quartet <args>` on a pseudo-terminal (util-linux script): its stdout and stderr are a TTY. */
export function onTerminal(args: string[], env: Record<string, string | undefined>) {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  // `exec`: script runs the command through $SHELL, and a shell left in between (dash, the
  // /bin/sh of Debian) would itself die of the terminal's SIGINT and report 130 for the server.
  const command = ['exec', ...[process.execPath, '--import', 'tsx', CLI_ENTRY, ...args].map(quote)].join(' ')
  return collect('script', ['-qfec', command, '/dev/null'], env)
}

/** Piped, as a log collector reads it. */
export function piped(args: string[], env: Record<string, string | undefined>) {
  return collect(process.execPath, ['--import', 'tsx', CLI_ENTRY, ...args], env)
}
