import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runCli } from '../../../helpers/cli.js'
import { eventually, startOrchestrator } from '../../../helpers/orchestrator.js'

// Each task writes its own file (and task 2 a large one, to pass the inline cap).
const WRITER = {
  kind: 'command',
  argv: ['/bin/sh', '-c', 'echo "work of $0" > "out-$0.txt"; if [ "$0" = "s1-2" ]; then seq 1 20000 > big.txt; fi', '{taskId}']
}
const TWO = '# Review\n\n## Task 1: first\nWrite a file.\n\n## Task 2: second\nWrite a big file.\n'

test('task diff over HTTP and quartet review: each DONE task against its base, capped inline with the size stated', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { agents: { sh: WRITER }, default_agent: 'sh' },
    directives: TWO
  })
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  assert.equal((await orch.call('POST', '/api/start')).status, 202)
  await eventually(async () => (await orch.repositories.jobs.latest(1))?.active === false, 60_000, 'the job to end')

  const one = await orch.call('GET', '/api/sprint/task/s1-1/diff')
  assert.equal(one.status, 200, one.body)
  assert.deepEqual(one.json.files, [{ path: 'out-s1-1.txt', insertions: 1, deletions: 0 }])
  assert.equal(one.json.insertions, 1)
  assert.match(one.json.diff, /^\+work of s1-1$/m)
  assert.equal(one.json.truncated, false)
  assert.equal(one.json.branch, 'quartet/s1/s1-1')

  const two = await orch.call('GET', '/api/sprint/task/s1-2/diff')
  assert.equal(two.json.truncated, true)
  assert.equal(two.json.diff.length, 64_000)
  assert.ok(two.json.diffBytes > 100_000, String(two.json.diffBytes))
  assert.equal(two.json.insertions, 20_001)

  assert.equal((await orch.call('GET', '/api/sprint/task/nope-9/diff')).status, 404)
  assert.equal((await orch.call('GET', '/api/sprint/task/bad.id!/diff')).status, 403)

  const env = { QUARTET_DATA_DIR: orch.config.dataDir, DATABASE_URL: orch.config.databaseUrl ?? '', LOG_LEVEL: 'warn', NO_COLOR: '1' }
  const stat = await runCli(['review', '--stat', '--project', orch.project.root], env)
  assert.equal(stat.code, 0, stat.stdout + stat.stderr)
  assert.match(stat.stdout, /s1-1 {2}first {2}DONE {2}quartet\/s1\/s1-1 .* 1 file\(s\) \+1 -0/)
  assert.match(stat.stdout, /^ {2}big\.txt {2}\+20000 -0$/m)
  assert.match(stat.stdout, /2 task\(s\) in sprint s1\./)
  const full = await runCli(['review', 's1-1', '--project', orch.project.root], env)
  assert.equal(full.code, 0)
  assert.match(full.stdout, /^\+work of s1-1$/m)
  assert.doesNotMatch(full.stdout, /big\.txt/)
})
