/**
 * What the load generator itself costs per response: `npx tsx bench/loader-cost.ts [--bytes 103424] [--rounds 4]`.
 *
 * autocannon (in this process, as in `npm run bench`) against a raw node:http server in a child process that answers
 * every request with a fixed body of the given size (bytes of `a`: all ASCII, the cheapest body for autocannon to
 * decode). Each round prints the throughput, this process's CPU as a share of one core and per response, and the time
 * its collector paused it: when the load generator is near one core, a row of benchmarks.md with answers of that size
 * measures autocannon rather than the server (docs/performance.md).
 */
import { PerformanceObserver } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { CONNECTIONS, ROUND_SECONDS, startFixedBodyServer, stop } from './harness.js'

const { values } = parseArgs({ options: { bytes: { type: 'string', default: '103424' }, rounds: { type: 'string', default: '4' } } })
const bytes = Number(values.bytes)
const server = await startFixedBodyServer(Buffer.alloc(bytes, 'a'))
try {
  let pausedMs = 0
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pausedMs += entry.duration
  }).observe({ entryTypes: ['gc'] })
  console.log(`${bytes}-byte answers, ${CONNECTIONS} connections, rounds of ${ROUND_SECONDS} s`)
  for (let round = 1; round <= Number(values.rounds); round++) {
    const cpuBefore = process.cpuUsage()
    const pausedBefore = pausedMs
    const startedAt = performance.now()
    const result = await autocannon({ url: server.url, connections: CONNECTIONS, duration: ROUND_SECONDS })
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
  await stop(server.child)
}
