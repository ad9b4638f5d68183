import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { sandbox } from './orchestrator.sandbox.js'

test('quartet logs prints the whole stored log through a pipe (far past 64 KiB)', async () => {
  const box = await sandbox({ directives: '## Task 1: talk\nAgent: chatty\nTalks a lot.\n' })
  assert.equal((await box.cli('plan')).code, 0)
  const run = await box.cli('run')
  assert.equal(run.code, 0, run.stdout + run.stderr)
  const file = path.join(box.env.QUARTET_DATA_DIR!, 'orchestrator', 'logs', 's1', 's1-1.log')
  const stored = fs.readFileSync(file, 'utf8')
  assert.ok(stored.length > 800_000, `the log has ${stored.length} bytes`)
  // runCli reads the command's stdout through a pipe.
  const logs = await box.cli('logs', 's1-1')
  assert.equal(logs.code, 0, logs.stderr)
  assert.equal(logs.stdout.length, stored.length)
  assert.equal(logs.stdout, stored)
  assert.match(logs.stdout, /chatty last line\n/)
})
