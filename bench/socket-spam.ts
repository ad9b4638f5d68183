/**
 * HTTP latency of the feed while authenticated Socket.IO clients spam events:
 * `npx tsx bench/socket-spam.ts [--sockets 300] [--events 200] [--seconds 6]`.
 *
 * Starts `quartet serve feed` (the built CLI, or the sources through tsx when there is no dist/),
 * signs one user up, and measures `GET /feed/posts` one request at a time from this process —
 * first quietly, then while a separate process connects the sockets and has each emit its events
 * as fast as it can. Three processes, so neither the spam nor the prober's own event loop adds to
 * the latency it reports. Bounded: the spam phase lasts at most --seconds.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { io } from 'socket.io-client'
import { CLI, reportRows, root, serverEnv, startServer, stop } from './harness.js'

const { values: options } = parseArgs({
  options: {
    sockets: { type: 'string', default: '300' },
    events: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '6' },
    spammer: { type: 'string' },
    token: { type: 'string' }
  }
})

if (options.spammer) await spam(options.spammer, options.token ?? '', Number(options.sockets), Number(options.events))
else await main()

async function spam(url: string, token: string, count: number, events: number): Promise<void> {
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof io>>((resolve, reject) => {
          const socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } })
          socket.once('connect', () => resolve(socket))
          socket.once('connect_error', reject)
        })
    )
  )
  let disconnected = 0
  for (const socket of sockets) socket.on('disconnect', () => disconnected++)
  process.stdout.write('connected\n')
  await new Promise((resolve) => process.stdin.once('data', resolve))
  for (let i = 0; i < events; i++) for (const socket of sockets) socket.emit('spam', { i, text: 'x'.repeat(100) })
  await new Promise((resolve) => setTimeout(resolve, 2000))
  process.stdout.write(`${JSON.stringify({ sockets: count, sent: count * events, disconnected })}\n`)
  process.exit(0)
}

async function probe(url: string, token: string, untilMs: number): Promise<number[]> {
  const samples: number[] = []
  while (performance.now() < untilMs) {
    const started = performance.now()
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`)
    samples.push(performance.now() - started)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return samples
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN) * 10) / 10
  return { requests: sorted.length, p50: at(0.5), p99: at(0.99), max: at(1) }
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-socket-spam-'))
  const built = fs.existsSync(CLI)
  const env = serverEnv({ LOG_LEVEL: 'warn', FEED_PORT: '0' }, dataDir)
  const server = await startServer(
    ['feed'],
    env,
    60_000,
    built ? {} : { cli: path.join(root, 'src', 'cli', 'main.ts'), nodeFlags: ['--import', 'tsx'] }
  )
  try {
    const base = server.urls.feed as string
    const credentials = { email: 'spam@example.com', password: 'secret123', name: 'Spam' }
    const json = { 'content-type': 'application/json' }
    await fetch(`${base}/auth/signup`, { method: 'PUT', headers: json, body: JSON.stringify(credentials) })
    const login = (await (
      await fetch(`${base}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify(credentials) })
    ).json()) as {
      token: string
    }
    const posts = `${base}/feed/posts?page=1`
    const quiet = await probe(posts, login.token, performance.now() + 2000)
    const spammer = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        import.meta.filename,
        '--spammer',
        base,
        '--token',
        login.token,
        '--sockets',
        options.sockets,
        '--events',
        options.events
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] }
    )
    const exited = new Promise((resolve) => spammer.once('exit', resolve))
    let output = ''
    spammer.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    while (!output.includes('connected\n')) {
      if (spammer.exitCode !== null) throw new Error('the spammer exited before connecting')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    spammer.stdin.write('go\n')
    const loaded = await probe(posts, login.token, performance.now() + Number(options.seconds) * 1000)
    await exited
    const result = JSON.parse(output.trim().split('\n').at(-1) as string) as Record<string, number>
    const abuseLines = fs
      .readFileSync(server.logFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes('disconnected for abuse')).length
    const during = summary(loaded)
    const calm = summary(quiet)
    reportRows([
      {
        service: 'feed',
        name:
          `HTTP \`GET /feed/posts\` (one at a time) while ${result.sockets} authenticated sockets emit ${result.sent} events ` +
          `(${options.seconds} s, ${built ? 'built CLI' : 'sources through tsx'})`,
        result: {
          metrics: {
            'spamming sockets disconnected': `${result.disconnected}/${result.sockets}`,
            'p50 ms during spam': during.p50,
            'p99 ms during spam': during.p99,
            'max ms during spam': during.max,
            'p99 ms without spam': calm.p99
          },
          targetText: 'HTTP p99 < 50 ms during spam',
          pass: during.p99 < 50
        }
      }
    ])
    console.log(
      JSON.stringify(
        {
          build: built ? 'dist' : 'tsx (sources)',
          ...result,
          serverLoggedAbuse: abuseLines,
          quiet: summary(quiet),
          duringSpam: summary(loaded)
        },
        null,
        2
      )
    )
  } finally {
    await stop(server.child)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
