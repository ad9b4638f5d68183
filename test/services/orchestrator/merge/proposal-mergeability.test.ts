import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startOrchestrator, type OrchestratorHarness } from '../../../helpers/orchestrator.js'

async function markDone(orch: OrchestratorHarness, id: string, branch: string | null) {
  await orch.database.db
    .updateTable('orch_tasks' as never)
    .set({ status: 'DONE', branch } as never)
    .where('id' as never, '=', id as never)
    .execute()
}

function branch(orch: OrchestratorHarness, id: string, from: string, file: string, content: string) {
  orch.project.git('checkout', '-q', '-b', `quartet/s1/${id}`, from)
  orch.project.write(file, content)
  orch.project.git('add', '-A')
  orch.project.git('commit', '-q', '-m', `work of ${id}`)
  orch.project.git('checkout', '-q', 'main')
}

test('GET /api/git/proposal: per DONE task READY, BEHIND, CONFLICT or MERGED against the checked-out branch; nothing touched', async () => {
  const directives = [1, 2, 3, 4, 5].map((n) => `## Task ${n}: task ${n}\nDo it.\n`).join('\n')
  const orch = await startOrchestrator({ env: { QUARTET_CONTROL_MUTATIONS: '1' }, config: { agents: {} }, directives })
  assert.equal((await orch.call('POST', '/api/plan')).status, 200)
  branch(orch, 's1-1', 'main', 'README.md', 'one\n')
  branch(orch, 's1-2', 'main', 'README.md', 'two\n')
  branch(orch, 's1-3', 'main', 'c.txt', 'c\n')
  orch.project.git('merge', '-q', '--no-ff', '-m', 'land s1-1', 'quartet/s1/s1-1')
  branch(orch, 's1-4', 'main', 'd.txt', 'd\n')
  for (const id of ['s1-1', 's1-2', 's1-3', 's1-4']) await markDone(orch, id, `quartet/s1/${id}`)
  await markDone(orch, 's1-5', null)
  // A local edit the proposal must leave alone.
  orch.project.write('local.txt', 'mine\n')
  const before = {
    refs: orch.project.git('for-each-ref'),
    status: orch.project.git('status', '--porcelain=v1', '--untracked-files=all'),
    worktrees: orch.project.git('worktree', 'list', '--porcelain')
  }

  const response = await orch.call('GET', '/api/git/proposal')
  assert.equal(response.status, 200, response.body)
  assert.equal(response.json.target, 'main')
  const states = Object.fromEntries(
    response.json.tasks.map((t: { taskId: string; state: string; files: string[]; behind: number }) => [
      t.taskId,
      [t.state, t.files, t.behind]
    ])
  )
  assert.deepEqual(states, {
    's1-1': ['MERGED', [], 0],
    's1-2': ['CONFLICT', ['README.md'], 2],
    's1-3': ['BEHIND', [], 2],
    's1-4': ['READY', [], 0]
  })
  assert.deepEqual(
    {
      refs: orch.project.git('for-each-ref'),
      status: orch.project.git('status', '--porcelain=v1', '--untracked-files=all'),
      worktrees: orch.project.git('worktree', 'list', '--porcelain')
    },
    before
  )
  // The existing fields are still there.
  assert.ok(response.json.files.some((f: { path: string }) => f.path === 'local.txt'))

  // Detached HEAD: no target to merge into, so no per-task states.
  orch.project.git('checkout', '-q', '--detach', 'main')
  const detached = await orch.call('GET', '/api/git/proposal')
  assert.equal(detached.json.target, null)
  assert.deepEqual(detached.json.tasks, [])
})

test('GET /api/git/proposal outside a git repository: no target, no tasks', async () => {
  const orch = await startOrchestrator({ git: false, config: { agents: {} } })
  const response = await orch.call('GET', '/api/git/proposal')
  assert.equal(response.status, 200, response.body)
  assert.equal(response.json.note, 'not-a-git-repo')
  assert.equal(response.json.target, null)
  assert.deepEqual(response.json.tasks, [])
})
