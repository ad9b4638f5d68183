/**
 * tsx bench/mcp-initialize.ts [runs=20]
 *
 * Time from spawning `node dist/cli/main.js mcp --project <dir>` to its answer to the MCP
 * `initialize` request, as Claude Code starts it (stdio, one JSON-RPC message per line). Prints
 * every run and the median / p95 / max. Build first (npm run build): the source through tsx is not
 * what users run.
 *
 * The same is measured for a bare `node -e` that answers the same line (alternating runs): the
 * floor no code of Quartet's can go under on this machine at this moment, so a busy machine shows
 * as a high floor, and the difference is what `quartet mcp` itself costs.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { reportRows } from './harness.js'

const root = path.resolve(import.meta.dirname, '..')
const entry = path.join(root, 'dist', 'cli', 'main.js')
const runs = Number(process.argv[2] ?? 20)

// Answers one initialize line like the server does, with nothing loaded.
const BARE = `process.stdin.once('data', (d) => { const m = JSON.parse(String(d).split('\\n')[0]);
process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { serverInfo: { name: 'quartet' } } }) + '\\n') })`

function once(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (!out.includes('\n')) return
      const ms = performance.now() - started
      const answer = JSON.parse(out.slice(0, out.indexOf('\n'))) as { id?: number; result?: { serverInfo?: { name?: string } } }
      child.kill()
      if (answer.id !== 1 || answer.result?.serverInfo?.name !== 'quartet') reject(new Error(`unexpected answer: ${out}`))
      else resolve(ms)
    })
    child.on('error', reject)
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } }
    }
    child.stdin.write(`${JSON.stringify(initialize)}\n`)
  })
}

if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: npm run build first`)
const project = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-mcp-bench-'))
const times: number[] = []
const floor: number[] = []
try {
  for (let i = 0; i < runs; i++) {
    times.push(await once([entry, 'mcp', '--project', project]))
    floor.push(await once(['-e', BARE]))
  }
} finally {
  fs.rmSync(project, { recursive: true, force: true })
}
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
  return { median: at(0.5), p95: at(0.95), max: sorted.at(-1)! }
}
const mcp = stats(times)
const bare = stats(floor)
const overhead = stats(times.map((t, i) => t - floor[i]!))
console.log(`runs: ${times.map((t) => t.toFixed(0)).join(' ')}`)
console.log(`bare node runs: ${floor.map((t) => t.toFixed(0)).join(' ')}`)
const summary = (s: typeof mcp) => `median ${s.median.toFixed(0)} ms, p95 ${s.p95.toFixed(0)} ms, max ${s.max.toFixed(0)} ms`
console.log(`quartet mcp → initialize answered: ${summary(mcp)} (${runs} runs)`)
console.log(`bare node → same answer: ${summary(bare)}; quartet mcp over it (per pair): ${summary(overhead)}`)
reportRows([
  {
    service: 'orchestrator',
    name: `\`quartet mcp\` answers \`initialize\` (built CLI spawned per run, ${runs} runs)`,
    result: {
      metrics: {
        'median ms': mcp.median,
        'p95 ms': mcp.p95,
        'max ms': mcp.max,
        'bare node median ms': bare.median,
        'over bare node median ms': overhead.median
      },
      targetText: 'median < 300 ms',
      pass: mcp.median < 300
    }
  }
])
