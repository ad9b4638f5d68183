import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { CLI_ENTRY } from '../../../helpers/cli.js'
import { eventually } from '../../../helpers/orchestrator.js'
import { cli, doneSprint } from './helpers.js'

test('quartet merge: dependency order, then oldest first; the checked-out target is updated; a re-run is idempotent', async () => {
  const orch = await doneSprint([
    { files: { 'a.txt': 'a\n' }, finished: 3 },
    { files: { 'b.txt': 'b\n' }, dependsOn: 1, finished: 1 },
    { files: { 'c.txt': 'c\n' }, finished: 2 }
  ])
  const first = await cli(orch, 'merge')
  assert.equal(first.code, 0, first.stdout + first.stderr)
  // s1-2 finished first but depends on s1-1; s1-3 finished before s1-1.
  assert.deepEqual(
    [...first.stdout.matchAll(/^MERGED\s+(s1-\d)/gm)].map((m) => m[1]),
    ['s1-3', 's1-1', 's1-2']
  )
  for (const file of ['a.txt', 'b.txt', 'c.txt']) assert.ok(fs.existsSync(path.join(orch.project.root, file)), file)
  assert.equal(orch.project.git('status', '--porcelain', '--untracked-files=no'), '')
  const head = orch.project.git('rev-parse', 'main').trim()
  const again = await cli(orch, 'merge')
  assert.equal(again.code, 0, again.stdout)
  assert.equal(orch.project.git('rev-parse', 'main').trim(), head, 'nothing merged twice')
})

test('a real conflict is reported with its file and nothing is touched; exit code 1', async () => {
  const orch = await doneSprint([
    { files: { 'README.md': 'one\n' }, finished: 1 },
    { files: { 'README.md': 'two\n' }, finished: 2 }
  ])
  const result = await cli(orch, 'merge')
  assert.equal(result.code, 1)
  assert.match(result.stdout, /^MERGED\s+s1-1/m)
  assert.match(result.stdout, /^CONFLICT\s+s1-2 .*\n\s+README\.md$/m)
  assert.equal(fs.readFileSync(path.join(orch.project.root, 'README.md'), 'utf8'), 'one\n')
  assert.equal(orch.project.git('status', '--porcelain'), '')
  assert.equal(orch.project.git('worktree', 'list').trim().split('\n').length, 1)
  assert.equal(orch.project.git('for-each-ref', 'refs/quartet-merge/'), '')
})

test('a failing check on the integrated tree leaves the target unchanged; a dependent task is SKIPPED', async () => {
  const orch = await doneSprint(
    [
      { files: { 'bad.txt': 'x\n' }, finished: 1 },
      { files: { 'ok.txt': 'x\n' }, dependsOn: 1, finished: 2 }
    ],
    { check: { command: 'test ! -f bad.txt' } }
  )
  const before = orch.project.git('rev-parse', 'main').trim()
  const result = await cli(orch, 'merge')
  assert.equal(result.code, 1)
  assert.match(result.stdout, /^CHECK_FAILED\s+s1-1/m)
  assert.match(result.stdout, /^SKIPPED\s+s1-2\s+dependency s1-1 is not merged/m)
  assert.equal(orch.project.git('rev-parse', 'main').trim(), before)
  assert.equal(orch.project.git('worktree', 'list').trim().split('\n').length, 1, 'the check worktree is removed')
})

test('a target checked out with uncommitted changes to a touched file is refused, losing nothing', async () => {
  const orch = await doneSprint([{ files: { 'README.md': 'merged\n', 'new.txt': 'n\n' }, finished: 1 }])
  orch.project.write('README.md', 'my local edit\n')
  orch.project.write('scratch.txt', 'untracked\n')
  const before = orch.project.git('rev-parse', 'main').trim()
  const result = await cli(orch, 'merge')
  assert.equal(result.code, 1)
  assert.match(result.stdout, /uncommitted changes to README\.md/)
  assert.equal(fs.readFileSync(path.join(orch.project.root, 'README.md'), 'utf8'), 'my local edit\n')
  assert.equal(fs.readFileSync(path.join(orch.project.root, 'scratch.txt'), 'utf8'), 'untracked\n')
  assert.equal(orch.project.git('rev-parse', 'main').trim(), before)
  // A local change to a file the merge does not touch is kept while the merge lands.
  orch.project.git('checkout', '--', 'README.md')
  orch.project.write('notes-local.txt', 'keep me\n')
  const second = await cli(orch, 'merge')
  assert.equal(second.code, 0, second.stdout)
  assert.equal(fs.readFileSync(path.join(orch.project.root, 'README.md'), 'utf8'), 'merged\n')
  assert.equal(fs.readFileSync(path.join(orch.project.root, 'notes-local.txt'), 'utf8'), 'keep me\n')
})

test('a target checked out in another worktree is advanced with update-ref and that worktree is brought up to date', async () => {
  const orch = await doneSprint([{ files: { 'feature.txt': 'f\n' }, finished: 1 }])
  orch.project.git('checkout', '-q', '-b', 'dev')
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-other-'))
  after(() => fs.rmSync(elsewhere, { recursive: true, force: true }))
  orch.project.git('worktree', 'add', '-q', path.join(elsewhere, 'main'), 'main')
  const result = await cli(orch, 'merge', '--into', 'main')
  assert.equal(result.code, 0, result.stdout + result.stderr)
  assert.equal(fs.readFileSync(path.join(elsewhere, 'main', 'feature.txt'), 'utf8'), 'f\n')
  assert.equal(orch.project.git('-C', path.join(elsewhere, 'main'), 'status', '--porcelain'), '')
  assert.equal(orch.project.git('rev-parse', '--abbrev-ref', 'HEAD').trim(), 'dev')
})

test('20 queued branches merge first-in-first-out by completion; POST /api/merge + GET /api/merge/:id + merge events', async () => {
  const n = 20
  // Task k finished (n - k): the newest-planned finished first.
  const orch = await doneSprint(Array.from({ length: n }, (_, i) => ({ files: { [`f${i + 1}.txt`]: `${i + 1}\n` }, finished: n - i })))
  const started = await orch.call('POST', '/api/merge', { strategy: 'squash' })
  assert.equal(started.status, 202, started.body)
  const done = await eventually(
    async () => {
      const now = await orch.call('GET', `/api/merge/${started.json.id}`)
      return now.json.status !== 'running' ? now.json : null
    },
    60_000,
    'the merge to end'
  )
  assert.equal(done.status, 'done', JSON.stringify(done))
  const expected = Array.from({ length: n }, (_, i) => `s1-${n - i}`)
  assert.deepEqual(
    done.items.map((i: { taskId: string }) => i.taskId),
    expected
  )
  const subjects = orch.project.git('log', '--format=%s', `-${n}`, 'main').trim().split('\n').reverse()
  assert.deepEqual(
    subjects.map((s) => s.split(':')[0]),
    expected
  )
  const events = await orch.database.db
    .selectFrom('orch_events' as never)
    .select(['type' as never, 'data' as never])
    .where('type' as never, 'like', 'merge_%' as never)
    .orderBy('seq' as never)
    .execute()
  assert.equal(events.length, n + 2)
  // A squash re-run lands nothing twice.
  const head = orch.project.git('rev-parse', 'main').trim()
  const again = await cli(orch, 'merge', '--strategy', 'squash')
  assert.equal(again.code, 0, again.stdout)
  assert.equal(orch.project.git('rev-parse', 'main').trim(), head)
  assert.equal((await orch.call('GET', '/api/merge/nope')).status, 404)
  assert.equal((await orch.call('POST', '/api/merge', { strategy: 'octopus' })).status, 400)
  assert.equal((await orch.call('POST', '/api/merge', { into: 'no-such-branch' })).status, 400)
})

test('kill -9 mid-merge: the run is found interrupted, nothing half-merged is left, and a re-run lands everything', async () => {
  const orch = await doneSprint([{ files: { 'x.txt': 'x\n' }, finished: 1 }], { check: { command: 'sleep 60' } })
  const before = orch.project.git('rev-parse', 'main').trim()
  const env = { ...process.env, QUARTET_DATA_DIR: orch.config.dataDir, DATABASE_URL: orch.config.databaseUrl ?? '', LOG_LEVEL: 'warn' }
  const child = spawn(process.execPath, ['--import', 'tsx', CLI_ENTRY, 'merge', '--project', orch.project.root], {
    env,
    stdio: 'ignore',
    detached: true
  })
  after(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      // already gone
    }
  })
  // Killed while the check runs on the integrated tree (the temporary ref and check worktree exist).
  await eventually(async () => orch.project.git('for-each-ref', 'refs/quartet-merge/').trim() !== '', 60_000, 'the check to start')
  process.kill(-child.pid!, 'SIGKILL')
  await new Promise((resolve) => child.once('exit', resolve))
  const [row] = (await orch.database.db
    .selectFrom('orch_merges' as never)
    .select('id' as never)
    .execute()) as Array<{ id: string }>
  const seen = await orch.call('GET', `/api/merge/${row!.id}`)
  assert.equal(seen.json.status, 'interrupted', seen.body)
  assert.deepEqual(
    seen.json.items.map((i: { status: string }) => i.status),
    ['INTERRUPTED']
  )
  assert.equal(orch.project.git('rev-parse', 'main').trim(), before)
  assert.equal(orch.project.git('for-each-ref', 'refs/quartet-merge/'), '')
  assert.equal(orch.project.git('worktree', 'list').trim().split('\n').length, 1)
  assert.equal(orch.project.git('status', '--porcelain'), '')
  orch.project.write('.quartet/config.json', JSON.stringify({ agents: {}, check: { command: 'true' } }))
  const again = await cli(orch, 'merge')
  assert.equal(again.code, 0, again.stdout + again.stderr)
  assert.ok(fs.existsSync(path.join(orch.project.root, 'x.txt')))
})
