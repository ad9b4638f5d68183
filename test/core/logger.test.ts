import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'

const loggerModule = path.resolve(import.meta.dirname, '../../src/core/logger.ts')

/** Runs a script that logs through createLogger with stdout going to a file (as a collector would take it). */
function runLogging(script: string): { file: string; child: ReturnType<typeof spawn> } {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-logger-')), 'out.log')
  const out = fs.openSync(file, 'a')
  const code =
    `import { createLogger } from ${JSON.stringify(loggerModule)}\n` + `const log = createLogger('info', { format: 'json' })\n${script}`
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', out, 'inherit'] })
  fs.closeSync(out)
  return { file, child }
}

const lines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { msg: string })

test('buffered log lines reach a file within about a second while the process keeps running', async () => {
  const { file, child } = runLogging(`log.info('first line'); setInterval(() => {}, 1000)`)
  try {
    const deadline = Date.now() + 5000
    while (!fs.readFileSync(file, 'utf8').includes('first line') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
    assert.deepEqual(
      lines(file).map((l) => l.msg),
      ['first line']
    )
  } finally {
    child.kill('SIGKILL')
  }
})

test('lines still in the buffer are written when the process exits', async () => {
  const { file, child } = runLogging(`for (let i = 0; i < 5; i++) log.info('line ' + i); process.exit(0)`)
  await new Promise((resolve) => child.on('exit', resolve))
  assert.deepEqual(
    lines(file).map((l) => l.msg),
    ['line 0', 'line 1', 'line 2', 'line 3', 'line 4']
  )
})

test('many lines with multi-byte text arrive whole and in order, none split or lost, past several buffer flushes', async () => {
  const { file, child } = runLogging(
    `for (let i = 0; i < 3000; i++) log.info({ i, text: 'Zürich → 東京 ' + '✓'.repeat(i % 50) }, 'line ' + i); process.exit(0)`
  )
  await new Promise((resolve) => child.on('exit', resolve))
  const logged = lines(file) as unknown as Array<{ msg: string; i: number; text: string }>
  assert.equal(logged.length, 3000)
  logged.forEach((line, i) => assert.deepEqual([line.msg, line.i, line.text], [`line ${i}`, i, `Zürich → 東京 ${'✓'.repeat(i % 50)}`]))
})
