// @quartet-test-once: the dashboard's plain-line output; what it reads is covered on every database
// by the component tests.
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { CLI_ENTRY } from '../helpers/cli.js'
import { ROOT, running, TWO } from './dashboard-tui.sandbox.js'
import { eventually, tracked } from './orchestrator.sandbox.js'

test('without a terminal the dashboard prints plain lines: a snapshot, then events and status changes', async () => {
  const { box, start } = await running(TWO)
  const child = spawn(process.execPath, ['--import', 'tsx', CLI_ENTRY, 'dashboard', '--project', box.root], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  tracked.add(child.pid!)
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr.on('data', (d: Buffer) => (out += d.toString()))
  await eventually(() => /^task {4}s1-2 /m.test(out), 60_000, `the snapshot:\n${out}`)
  assert.ok(!out.includes('\u001b['), 'no terminal escapes in plain output')
  await start()
  await eventually(() => /^status {2}s1-1 DONE$/m.test(out) && /^event {3}#\d+ task_done s1-1$/m.test(out), 120_000, `live lines:\n${out}`)
  fs.writeFileSync(path.join(box.state, 'go'), '')
  await eventually(() => /^status {2}s1-2 DONE$/m.test(out), 120_000, `s1-2 done:\n${out}`)
  child.kill('SIGTERM')
  const code = await new Promise((resolve) => child.on('close', resolve))
  assert.equal(code, 0)
})

test('the dashboard with a wrong token or no server says so and exits 1', async () => {
  const { base } = await running('## Task 1: quick\nWrite.\n')
  const wrong = spawnSync(process.execPath, ['--import', 'tsx', CLI_ENTRY, 'dashboard', '--url', base, '--token', 'not-the-token'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000
  })
  assert.equal(wrong.status, 1, wrong.stdout + wrong.stderr)
  assert.match(wrong.stdout, /refused the token/)
  const nobody = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-dash-none-'))
  after(() => fs.rmSync(nobody, { recursive: true, force: true }))
  const none = spawnSync(process.execPath, ['--import', 'tsx', CLI_ENTRY, 'dashboard', '--project', nobody], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000
  })
  assert.equal(none.status, 1)
  assert.match(none.stderr, /No orchestrator is serving/)
})
