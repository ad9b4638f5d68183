/**
 * What bounds one service row: `npx tsx bench/replay-pair.ts --service trips --route 'tour/{id}' [--rounds 3] [--syscalls]`.
 *
 * Starts the service alone (built CLI, as a row of `npm run bench`), sets it up with its bench scenario, and reads the
 * route's answer once. A raw node:http server then replays that answer — the same status, headers and body — so each
 * round loads three servers in turn: the baseline, the replay and the service. Per server it prints req/s, CPU per
 * request and the share of it spent in the kernel, and the CPU of the server and the load generator: the replay tells
 * what this machine can move of an answer of that shape, the gap to the service is the service's own work.
 * `--syscalls` counts the service's system calls per request over one extra round (needs `strace`; it slows the server).
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { contextFor, load, serverEnv, startBaseline, startFixedBodyServer, startServer, stop, type Baseline } from './harness.js'
import type { HttpScenario, ServiceBench } from './types.js'

const { values } = parseArgs({
  options: {
    service: { type: 'string', default: 'trips' },
    route: { type: 'string', default: 'tour/{id}' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '4' },
    syscalls: { type: 'boolean', default: false }
  }
})
const service = values.service
const seconds = Number(values.seconds)

async function measured(url: string, scenario: Pick<HttpScenario, 'method' | 'headers' | 'body'>, pid: number) {
  const round = await load(url, scenario, seconds, pid)
  if (round.non2xx > 0 || round.errors > 0) throw new Error(`${url}: ${round.non2xx} non-2xx, ${round.errors} errors`)
  return { ...round, usPerRequest: (round.serverCpuMs * 1000) / round.requests, systemShare: round.serverSystemMs / round.serverCpuMs }
}

const text = (r: Awaited<ReturnType<typeof measured>>) =>
  `${Math.round(r.rps)} req/s, ${r.usPerRequest.toFixed(1)} µs/request (${Math.round(r.systemShare * 100)} % kernel), ` +
  `server ${Math.round(r.serverCpu * 100)} % / load generator ${Math.round(r.loaderCpu * 100)} %`

const bench = ((await import(`./scenarios/${service}.js`)) as { bench: ServiceBench }).bench
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-replay-pair-'))
const env = serverEnv({ LOG_LEVEL: 'warn', [`${service.toUpperCase()}_PORT`]: '0', ...(bench.env ?? {}) }, dataDir)
const server = await startServer([service], env)
const referenceServers: Baseline[] = []
let replay: Baseline | undefined
let baseline: Baseline | undefined
try {
  const url = server.urls[service]!
  const scenario = (await bench.setup(contextFor(url, env, server.pid, referenceServers))).find(
    (s): s is HttpScenario => s.kind === 'http' && s.url === undefined && s.name.includes(values.route)
  )
  if (!scenario) throw new Error(`no HTTP scenario of ${service} has "${values.route}" in its name`)
  // node:http, not fetch: fetch asks for and decodes compressed answers, the load generator asks for neither.
  const answer = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const request = http.request(url + scenario.path, { method: scenario.method, headers: scenario.headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }))
    })
    request.on('error', reject)
    request.end(scenario.body)
  })
  const body = answer.body
  const headers = Object.fromEntries(
    Object.entries(answer.headers).filter(
      (entry): entry is [string, string | string[]] =>
        entry[1] !== undefined && !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(entry[0])
    )
  )
  replay = await startFixedBodyServer(body, { status: answer.status, headers })
  baseline = await startBaseline()
  // autocannon decodes every body into a string: several times slower per byte when the body is not all ASCII.
  const nonAscii = body.reduce((count, byte) => count + (byte > 0x7f ? 1 : 0), 0)
  console.log(
    `${scenario.name}: ${answer.status}, ${body.length} bytes of body (${nonAscii} of them non-ASCII), ` +
      `${Object.keys(headers).length} headers`
  )
  await load(url + scenario.path, scenario, 2) // warm-up
  for (let round = 1; round <= Number(values.rounds); round++) {
    const base = await measured(baseline.url, { method: 'GET' }, baseline.pid)
    const copy = await measured(replay.url, { method: 'GET' }, replay.pid)
    const real = await measured(url + scenario.path, scenario, server.pid)
    console.log(`round ${round}:`)
    console.log(`  baseline ${text(base)}`)
    console.log(`  replay   ${text(copy)} = ${((100 * copy.rps) / base.rps).toFixed(1)} % of the baseline`)
    console.log(`  service  ${text(real)} = ${((100 * real.rps) / base.rps).toFixed(1)} % of the baseline`)
  }
  if (values.syscalls) {
    if (spawnSync('strace', ['-V']).status !== 0) throw new Error('--syscalls needs strace (apt-get install strace)')
    const output = path.join(dataDir, 'strace.txt')
    const tracer = spawn('strace', ['-c', '-f', '-p', String(server.pid), '-o', output], { stdio: 'ignore' })
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const traced = await load(url + scenario.path, scenario, seconds)
    tracer.kill('SIGINT')
    await new Promise((resolve) => tracer.once('exit', resolve))
    console.log(`system calls per request over ${traced.requests} requests (strace -c):`)
    for (const line of fs.readFileSync(output, 'utf8').split('\n')) {
      const columns = line.trim().split(/\s+/)
      const calls = Number(columns[3])
      if (columns.length >= 5 && Number.isFinite(calls) && calls >= traced.requests / 10) {
        console.log(`  ${columns.at(-1)}: ${(calls / traced.requests).toFixed(2)}`)
      }
    }
  }
} finally {
  if (replay) await stop(replay.child)
  if (baseline) await stop(baseline.child)
  for (const reference of referenceServers) await stop(reference.child)
  await stop(server.child)
  fs.rmSync(dataDir, { recursive: true, force: true })
}
