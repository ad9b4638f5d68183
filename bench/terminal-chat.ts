/**
 * Terminal and chat numbers for docs/benchmarks.md, against a real `quartet serve orchestrator`
 * process (loopback, bounded runs): keystroke → echo latency with 10 attached shell sessions,
 * server RSS while 10 sessions each print ~1 MB/s, and chat first-chunk latency from a local
 * streaming provider. Run: node --import tsx bench/terminal-chat.ts (BENCH_SECONDS: output phase, default 8)
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { startCli } from '../test/helpers/cli.js'
import { openTerminalSocket, type TerminalSocket } from '../test/helpers/terminal-client.js'
import { reportRows } from './harness.js'

const SESSIONS = 10
const OUTPUT_SECONDS = Number(process.env.BENCH_SECONDS ?? 8)

/** A Node one-liner (no single quotes, no `!`: it is typed into bash) printing ~1 MB/s of base64 lines for `seconds`. */
function producer(seconds: number): string {
  return (
    'const c=require("crypto").randomBytes(49152).toString("base64").match(/.{1,76}/g).join("\\n")+"\\n";' +
    `const end=Date.now()+${seconds * 1000};` +
    'const t=setInterval(()=>{process.stdout.write(c);if(Date.now()>end)clearInterval(t)},64)'
  )
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number
}

function rssMb(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:')) as string
  return Number(/\d+/.exec(line)?.[0]) / 1024
}

async function chatProvider(): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'first' } }] })}\n\n`)
      setTimeout(() => res.end('data: [DONE]\n\n'), 5)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  server.unref()
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function main(): Promise<void> {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-term-'))
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-term-data-'))
  const provider = await chatProvider()
  fs.mkdirSync(path.join(project, '.quartet'))
  fs.writeFileSync(
    path.join(project, '.quartet', 'config.json'),
    JSON.stringify({ agents: { local: { kind: 'openai-compatible', base_url: provider, model: 'm' } }, terminal: { max_sessions: 20 } })
  )
  const port = 30_000 + Math.floor(Math.random() * 20_000)
  const cli = await startCli(['serve', 'orchestrator'], {
    QUARTET_DATA_DIR: dataDir,
    QUARTET_PROJECT: project,
    ORCHESTRATOR_PORT: String(port),
    QUARTET_LOG_FORMAT: 'json'
  })
  const base = cli.urls.orchestrator as string
  const pid = cli.child.pid as number
  const apiToken = fs.readFileSync(path.join(project, '.quartet', 'runtime', 'api-token'), 'utf8').trim()
  try {
    const token = (
      (await (await fetch(`${base}/api/terminal/token`, { headers: { authorization: `Bearer ${apiToken}` } })).json()) as { token: string }
    ).token
    const sockets: TerminalSocket[] = []
    for (let i = 0; i < SESSIONS; i++) {
      const created = await fetch(`${base}/api/terminal/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'shell' })
      })
      const session = (await created.json()) as { id: string }
      const socket = await openTerminalSocket(base, token)
      socket.send({ t: 'attach', sessionId: session.id })
      await socket.waitFor((f) => f.t === 'attached')
      sockets.push(socket)
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const rssIdle = rssMb(pid)

    // Keystroke → echo: one key at a time, round robin over the 10 sessions.
    const samples: number[] = []
    for (let round = 0; round < 40; round++) {
      for (const socket of sockets) {
        const before = socket.frames.length
        const started = performance.now()
        socket.send({ t: 'input', data: 'x' })
        await socket.waitFor((f) => socket.frames.indexOf(f) >= before && f.t === 'output' && String(f.data).includes('x'), 5000)
        samples.push(performance.now() - started)
      }
    }
    for (const socket of sockets) socket.send({ t: 'input', data: '\x15' })

    // 10 sessions × ~1 MB/s for OUTPUT_SECONDS: one Node process per session writes 64 KiB of base64
    // lines every 64 ms (a shell loop of head | base64 | sleep forks three processes per chunk and
    // could not offer that rate on two cores). A TTY write blocks while the server does not read.
    let peakRss = 0
    const received = sockets.map((s) => s.output().length)
    for (const socket of sockets) {
      socket.send({
        t: 'input',
        data: `'${process.execPath}' -e '${producer(OUTPUT_SECONDS)}'\r`
      })
    }
    const watch = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid))), 200)
    await new Promise((resolve) => setTimeout(resolve, OUTPUT_SECONDS * 1000 + 500))
    clearInterval(watch)
    const bytes = sockets.reduce((sum, s, i) => sum + (s.output().length - (received[i] as number)), 0)

    // Chat: time to the first chunk frame through the SSE stream (20 runs).
    const firstChunk: number[] = []
    for (let i = 0; i < 20; i++) {
      const started = performance.now()
      const response = await fetch(`${base}/api/chat/stream?message=hello`, { headers: { authorization: `Bearer ${apiToken}` } })
      const reader = (response.body as ReadableStream<Uint8Array>).getReader()
      let seen = ''
      while (!seen.includes('"chunk"')) seen += new TextDecoder().decode((await reader.read()).value)
      firstChunk.push(performance.now() - started)
      await reader.cancel()
    }
    for (const socket of sockets) await socket.close()

    const result = {
      machine: `${os.cpus().length} cores, load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join('/')} (shared with other work)`,
      keystrokeEcho: { sessions: SESSIONS, samples: samples.length, p50Ms: percentile(samples, 50), p99Ms: percentile(samples, 99) },
      output: {
        sessions: SESSIONS,
        seconds: OUTPUT_SECONDS,
        bytesToClients: bytes,
        mbPerSecondPerSession: bytes / SESSIONS / OUTPUT_SECONDS / 1e6,
        rssIdleMb: rssIdle,
        rssPeakMb: peakRss
      },
      chatFirstChunk: { runs: firstChunk.length, p50Ms: percentile(firstChunk, 50), p99Ms: percentile(firstChunk, 99) }
    }
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
    const rate = result.output.mbPerSecondPerSession
    reportRows([
      {
        service: 'orchestrator',
        name: `terminal keystroke → echo, ${SESSIONS} attached shell sessions, ${samples.length} keys round robin`,
        result: {
          metrics: { 'p50 ms': result.keystrokeEcho.p50Ms, 'p99 ms': result.keystrokeEcho.p99Ms },
          targetText: 'p99 < 20 ms',
          pass: result.keystrokeEcho.p99Ms < 20
        }
      },
      {
        service: 'orchestrator',
        name: `${SESSIONS} terminal sessions printing base64 for ${OUTPUT_SECONDS} s (each offering ~1 MB/s)`,
        result: {
          metrics: {
            'server RSS idle MB': rssIdle,
            'peak MB': peakRss,
            'MB/s per session reached': rate,
            ...(rate < 0.9 ? { note: 'the offered rate was not reached, so the target condition is not shown' } : {})
          },
          targetText: `RSS < 300 MB at ${SESSIONS} × 1 MB/s`,
          // Met or missed only when the producers reached the rate the target is stated at.
          ...(rate >= 0.9 ? { pass: peakRss < 300 } : {})
        }
      },
      {
        service: 'orchestrator',
        name: `chat first chunk through \`/api/chat/stream\`, local streaming provider, ${firstChunk.length} runs`,
        result: { metrics: { 'p50 ms': result.chatFirstChunk.p50Ms, 'p99 ms': result.chatFirstChunk.p99Ms } }
      }
    ])
  } finally {
    await cli.stop()
    fs.rmSync(project, { recursive: true, force: true })
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
