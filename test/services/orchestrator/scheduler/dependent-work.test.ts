import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { createTestDatabase, type TestDatabase } from '../../../helpers/db.js'
import { orchestratorMigrations } from '../../../../src/services/orchestrator/migrations/index.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { createOrchestratorRepositories, type OrchestratorRepositories } from '../../../../src/services/orchestrator/state/repositories.js'
import { createExecutor } from '../../../../src/services/orchestrator/engine/execute.js'
import { createGit } from '../../../../src/services/orchestrator/engine/git.js'
import { createWorktrees } from '../../../../src/services/orchestrator/engine/worktrees.js'
import { runSprint } from '../../../../src/services/orchestrator/engine/scheduler.js'
import type { PlannedTask } from '../../../../src/services/orchestrator/engine/types.js'
import { planOf, shellTask, testConfig } from './helpers.js'

let database: TestDatabase
let repos: OrchestratorRepositories
let tmp: string
before(async () => {
  database = await createTestDatabase([orchestratorMigrations])
  repos = createOrchestratorRepositories(database.db as OrchestratorDb, () => new Date())
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'orch-deps-')))
})
after(async () => {
  await database.close()
  fs.rmSync(tmp, { recursive: true, force: true })
})

function git(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`)
  return run.stdout.trim()
}

/** A task whose agent is `sh -c <script>` run in the task's worktree by the real executor. */
const agentTask = (key: string, script: string, dependencies: string[] = []): PlannedTask & { script: string } => ({
  ...shellTask(key, script, { dependencies, expectChange: true, agent: `agent-${key}` }),
  script
})

/** Runs a sprint in a fresh repository with the real executor: one worktree and branch per task. */
async function runInRepo(name: string, tasks: Array<PlannedTask & { script: string }>) {
  const root = path.join(tmp, name)
  fs.mkdirSync(root)
  git(root, 'init', '-q', '-b', 'main')
  git(root, 'config', 'user.name', 'Test User')
  git(root, 'config', 'user.email', 'test@example.com')
  fs.writeFileSync(path.join(root, 'README.md'), '# project\n')
  git(root, 'add', '-A')
  git(root, 'commit', '-q', '-m', 'initial')
  const config = testConfig({ engine: { max_workers: 4 } })
  config.agents = Object.fromEntries(tasks.map((t) => [`agent-${t.key}`, { kind: 'command' as const, argv: ['/bin/sh', '-c', t.script] }]))
  const projectId = await repos.projects.ensure(root)
  const { sprint } = await repos.sprints.createFromPlan(projectId, planOf(tasks), { title: name, directivesDigest: null })
  const { job } = await repos.jobs.startJob(projectId, sprint.id, { resume: false })
  const dataDir = path.join(tmp, `${name}-data`)
  const executeTask = createExecutor({
    platform: { spawn, fetch, clock: () => new Date() },
    config,
    dataDir,
    worktrees: createWorktrees(createGit({ spawn })),
    runProviderTask: () => Promise.reject(new Error('none'))
  })
  const result = await runSprint({
    repositories: repos,
    projectId,
    sprintId: sprint.id,
    jobId: job.id,
    executeTask,
    config,
    projectRoot: root,
    dataDir,
    gitMode: true,
    clock: () => new Date(),
    signal: new AbortController().signal
  })
  const rows = await repos.tasks.listBySprint(sprint.id)
  return { root, result, tasks: new Map(rows.map((row) => [row.key, row])) }
}

test("a dependent task starts from its dependency's work: task 2 sees the file task 1 wrote", async () => {
  const { root, result, tasks } = await runInRepo('chain', [
    agentTask('1', 'echo one > one.txt'),
    agentTask('2', 'test "$(cat one.txt)" = one && echo two > two.txt', ['1'])
  ])
  assert.equal(result.status, 'COMPLETE')
  const [one, two] = [tasks.get('1')!, tasks.get('2')!]
  assert.equal(two.status, 'DONE', two.reason ?? '')
  assert.match(two.reason ?? '', /based on quartet\/.+-1\)$/)
  assert.deepEqual(two.filesChanged, ['two.txt'])
  assert.equal(git(root, 'rev-parse', `${two.commitSha}^`), one.commitSha)
  assert.equal(fs.existsSync(path.join(root, 'one.txt')), false)
})

test('two independent dependencies are merged for the task that needs both', async () => {
  const { result, tasks } = await runInRepo('diamond', [
    agentTask('a', 'echo a > a.txt'),
    agentTask('b', 'echo b > b.txt'),
    agentTask('c', 'test -f a.txt && test -f b.txt && cat a.txt b.txt > c.txt', ['a', 'b'])
  ])
  assert.equal(result.status, 'COMPLETE')
  const c = tasks.get('c')!
  assert.equal(c.status, 'DONE', c.reason ?? '')
  assert.match(c.reason ?? '', /based on quartet\/.+-a \+ quartet\/.+-b\)$/)
  assert.equal(fs.readFileSync(path.join(c.worktree!, 'c.txt'), 'utf8'), 'a\nb\n')
})

test('conflicting dependencies: the dependent task is NO_GO naming branches and files; their work stays', async () => {
  const { result, tasks } = await runInRepo('conflict', [
    agentTask('x', 'echo from-x > shared.txt'),
    agentTask('y', 'echo from-y > shared.txt'),
    agentTask('z', 'echo never > z.txt', ['x', 'y'])
  ])
  assert.equal(result.status, 'COMPLETE')
  const [x, y, z] = [tasks.get('x')!, tasks.get('y')!, tasks.get('z')!]
  assert.deepEqual([x.status, y.status, z.status], ['DONE', 'DONE', 'NO_GO'])
  assert.match(z.reason ?? '', /merging quartet\/.+-x, quartet\/.+-y conflicts in shared\.txt/)
  assert.equal(fs.readFileSync(path.join(x.worktree!, 'shared.txt'), 'utf8'), 'from-x\n')
  assert.equal(fs.readFileSync(path.join(y.worktree!, 'shared.txt'), 'utf8'), 'from-y\n')
  assert.equal(git(x.worktree!, 'rev-parse', 'HEAD'), x.commitSha)
  assert.equal(git(y.worktree!, 'rev-parse', 'HEAD'), y.commitSha)
})
