import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { root } from '../../bench/harness.js'
import { runScript, scriptSections, type BenchScript } from '../../bench/scripts.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-scripts-test-'))
after(() => fs.rmSync(dir, { recursive: true, force: true }))

/** A real script file run by the real runner (child process through tsx). */
function script(id: string, code: string, timeoutMs = 30_000): BenchScript {
  const file = path.join(dir, `${id}.mjs`)
  fs.writeFileSync(file, code)
  return { id, title: `Title ${id}`, file: path.relative(path.join(root, 'bench'), file), args: ['7'], env: { X_ARG: 'x' }, timeoutMs }
}

test('a script hands its rows, target and met back through BENCH_RESULT_FILE', async () => {
  const rows = JSON.stringify([
    { service: 'feed', name: 'n|', result: { metrics: { 'p99 ms': 12.34, count: 3 }, targetText: 'p99 < 10 ms', pass: false } },
    { service: 'feed', name: 'browser', result: { metrics: { skipped: 'no browser' }, targetText: '< 1 s' } }
  ])
  // The script appends its argument and environment to the first name: both reach it.
  const code = `import fs from 'node:fs'
const rows = ${rows}
rows[0].name += process.argv[2] + process.env.X_ARG
fs.writeFileSync(process.env.BENCH_RESULT_FILE, JSON.stringify(rows))
`
  const outcome = await runScript(script('ok', code))
  assert.equal(outcome.failure, undefined)
  assert.equal(outcome.rows.length, 2)
  assert.equal(outcome.rows[0]?.name, 'n|7x')
  const text = scriptSections([outcome]).join('\n')
  assert.match(text, /^## Title ok$/m)
  assert.match(text, /\| feed \| n\\\|7x \| p99 ms: 12\.3, count: 3 \| p99 < 10 ms \| \*\*no\*\* \|/)
  assert.match(text, /\| feed \| browser \| skipped: no browser \| < 1 s \| skipped \|/)
})

test('a failing script is reported as not measured, with the end of its output', async () => {
  const outcome = await runScript(script('fails', "console.error('no dist/ here')\nprocess.exit(3)\n"))
  assert.deepEqual(outcome.rows, [])
  assert.match(outcome.failure ?? '', /exited with 3: no dist\/ here/)
  assert.match(scriptSections([outcome]).join('\n'), /\*\*Not measured\*\* — the script exited with 3/)
})

test('a script that runs past its timeout is killed and reported', async () => {
  const started = performance.now()
  const outcome = await runScript(script('hangs', 'setInterval(() => {}, 1000)\n', 1500))
  assert.ok(performance.now() - started < 15_000)
  assert.deepEqual(outcome.rows, [])
  assert.match(outcome.failure ?? '', /killed after 1.5 s/)
})
