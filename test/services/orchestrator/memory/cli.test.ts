import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { isolatedDatabaseEnv, runCli } from '../../../helpers/cli.js'
import { createTempProject } from '../../../helpers/orchestrator.js'

test('quartet memory add, import, search and show work on the project without a server', async () => {
  const project = createTempProject()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-memory-cli-'))
  const pg = await isolatedDatabaseEnv('memcli')
  after(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true })
    await pg.cleanup()
  })
  const env = { QUARTET_DATA_DIR: dataDir, DATABASE_URL: pg.DATABASE_URL, LOG_LEVEL: 'silent' }
  const quartet = (...args: string[]) => runCli(['memory', ...args, '--project', project.root], env)

  const added = await quartet(
    'add',
    '--title',
    'Retry flaky provider calls',
    '--type',
    'decision',
    '--content',
    'Back off exponentially on 429 and 5xx.',
    '--tags',
    'providers,retry'
  )
  assert.equal(added.code, 0, added.stderr)
  const id = /^added #(\d+) \(decision\) Retry flaky provider calls$/m.exec(added.stdout)?.[1]
  assert.ok(id, added.stdout)
  project.write('notes/ops/backups.md', '# Backups\n\nNightly snapshots, retry twice.\n')
  const imported = await quartet('import', path.join(project.root, 'notes'))
  assert.deepEqual([imported.code, imported.stdout.trim()], [0, `imported 1 note(s) from ${path.join(project.root, 'notes')}`])

  const found = await quartet('search', 'retry', '--json')
  assert.equal(found.code, 0, found.stderr)
  const view = JSON.parse(found.stdout).view
  assert.deepEqual([view.state, view.consumer, view.entries.length], ['AVAILABLE', 'cli', 2])
  const anded = await quartet('search', 'retry', 'nightly', '--mode', 'and')
  assert.match(anded.stdout, /^#\d+ +memory +active +[\d.]+ +Backups$/m)
  assert.doesNotMatch(anded.stdout, /Retry flaky/)

  const shown = await quartet('show', id)
  assert.equal(shown.code, 0)
  assert.match(shown.stdout, /^#\d+ Retry flaky provider calls\ntype decision · status active · source user · tags providers retry/)
  assert.match(shown.stdout, /Back off exponentially on 429 and 5xx\.\n$/)

  const bad = await quartet('add', '--title', 'x', '--type', 'Not A Type', '--content', 'y')
  assert.equal(bad.code, 2)
  assert.match(bad.stderr, /invalid type "Not A Type"/)
  const held = await quartet('search', 'x', '--limit', '0')
  assert.equal(held.code, 1)
  assert.match(held.stderr, /memory read held: INVALID_REQUEST/)
})
