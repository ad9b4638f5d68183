/**
 * What the load generator itself costs per response: `npx tsx bench/loader-cost.ts [--bytes 103424] [--rounds 4]`.
 *
 * autocannon (in this process, as in `npm run bench`) against a raw node:http server in a child process that answers
 * every request with a fixed body of the given size. Each round prints the throughput, this process's CPU as a share
 * of one core and per response, and the time its collector paused it: when the load generator is near one core, a row
 * of benchmarks.md with answers of that size measures autocannon rather than the server (docs/performance.md).
 */
import { spawn } from 'node:child_process'
import { PerformanceObserver } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { CONNECTIONS, ROUND_SECONDS } from './harness.js'

const { values } = parseArgs({ options: { bytes: { type: 'string', default: '103424' }, rounds: { type: 'string', default: '4' } } })
const bytes = Number(values.bytes)
const server = `
const http = require('node:http')
const body = Buffer.alloc(${bytes}, 'a')
const server = http.createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length })
  response.end(body)
})
server.listen(0, '127.0.0.1', () => console.log(server.address().port))`
const child = spawn(process.execPath, ['-e', server], { stdio: ['ignore', 'pipe', 'inherit'] })
try {
  const port = await new Promise<number>((resolve) => child.stdout!.once('data', (data) => resolve(Number(String(data)))))
  let pausedMs = 0
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pausedMs += entry.duration
  }).observe({ entryTypes: ['gc'] })
  console.log(`${bytes}-byte answers, ${CONNECTIONS} connections, rounds of ${ROUND_SECONDS} s`)
  for (let round = 1; round <= Number(values.rounds); round++) {
    const cpuBefore = process.cpuUsage()
    const pausedBefore = pausedMs
    const startedAt = performance.now()
    const result = await autocannon({ url: `http://127.0.0.1:${port}/`, connections: CONNECTIONS, duration: ROUND_SECONDS })
    const cpu = process.cpuUsage(cpuBefore)
    const wallMs = performance.now() - startedAt
    const cpuMs = (cpu.user + cpu.system) / 1000
    console.log(
      `round ${round}: ${Math.round(result.requests.average)} req/s, load generator CPU ${Math.round((cpuMs / wallMs) * 100)} % ` +
        `of a core (${Math.round((cpuMs * 1000) / result.requests.total)} µs per response), ` +
        `collector pauses ${Math.round(pausedMs - pausedBefore)} ms`
    )
  }
} finally {
  child.kill()
}
