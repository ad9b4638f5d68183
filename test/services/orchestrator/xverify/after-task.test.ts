/**
 * Cross-verify after each task (cross_verify.after_task) through a real sprint run: the composed
 * orchestrator's job, real git worktrees, and two local OpenAI-compatible providers — the author
 * writes the diffs, a verifier of another provider judges them.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { allMigrationSets } from '../../../../src/cli/registry.js'
import { openDatabase } from '../../../../src/core/db/database.js'
import { migrateToLatest } from '../../../../src/core/db/migrations.js'
import { nodePlatform } from '../../../../src/core/platform.js'
import { createOrchestrator } from '../../../../src/services/orchestrator/compose.js'
import type { PlannedTask } from '../../../../src/services/orchestrator/engine/types.js'
import { checkReceipt } from '../../../../src/services/orchestrator/modules/xverify/receipt-check.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { createOrchestratorRepositories } from '../../../../src/services/orchestrator/state/repositories.js'
import { isolatedDatabaseEnv, runCli } from '../../../helpers/cli.js'
import { createTempProject } from '../../../helpers/orchestrator.js'
import { openAiAnswer, startScriptedServer } from '../providers/peers.js'

const diffFor = (file: string, from: string, to: string) =>
  `Done.\n\`\`\`diff\n--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-${from}\n+${to}\n\`\`\``

const task = (key: string, file: string, dependencies: string[] = []): PlannedTask => ({
  key,
  title: `Shout in ${file}`,
  description: `Make the text of ${file} upper case.`,
  dependencies,
  files: [file],
  goCriteria: [`${file} is upper case`],
  noGoCriteria: [],
  priority: 'NORMAL',
  expectChange: true
})

async function sprintWith(config: Record<string, unknown>, tasks: PlannedTask[]) {
  const project = createTempProject({ config })
  project.write('a.txt', 'hello\n')
  project.write('b.txt', 'world\n')
  project.git('add', '-A')
  project.git('commit', '-q', '-m', 'texts')
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-xv-after-'))
  const pg = await isolatedDatabaseEnv('xva')
  const database = await openDatabase({ url: pg.DATABASE_URL, sqlitePath: path.join(dataDir, 'quartet.db'), poolSize: 2 })
  await migrateToLatest(database.db, allMigrationSets())
  const orchestrator = await createOrchestrator({
    database,
    platform: nodePlatform(),
    projectRoot: project.root,
    dataDir,
    databaseUrl: pg.DATABASE_URL,
    controlMutationsSwitch: false,
    logger: { warn: () => undefined },
    env: {}
  })
  after(async () => {
    orchestrator.close()
    await database.close()
    await pg.cleanup()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })
  const repos = createOrchestratorRepositories(database.db as OrchestratorDb, () => new Date())
  const plan = { mode: 'structured' as const, tasks, warnings: [] }
  const { sprint } = await repos.sprints.createFromPlan(orchestrator.projectId, plan, { title: 'shout', directivesDigest: null })
  const { job } = await repos.jobs.startJob(orchestrator.projectId, sprint.id, { resume: false })
  const result = await orchestrator.runJob({ jobId: job.id })
  assert.equal(result.status, 'completed', result.error ?? '')
  const listed = await orchestrator.tasks.listTasks(undefined)
  const events = await repos.events.readAfter(orchestrator.projectId, 0, 1000)
  /** `quartet status` of the same project and database, as the operator runs it. */
  const status = (...args: string[]) =>
    runCli(['status', '--project', project.root, ...args], {
      QUARTET_DATA_DIR: dataDir,
      DATABASE_URL: pg.DATABASE_URL ?? '',
      NO_COLOR: '1'
    })
  return { orchestrator, dataDir, listed, events, status }
}

const provider = (url: string, model: string) => ({
  kind: 'openai-compatible' as const,
  base_url: url,
  model,
  price_per_mtok: { input: 1, output: 2 }
})

test('after each DONE task a verifier of another provider checks its diff: CONFIRMED closes with a receipt, REFUTED flags', async () => {
  const author = await startScriptedServer()
  const verifier = await startScriptedServer()
  after(() => Promise.all([author.close(), verifier.close()]))
  author.replies.push(
    openAiAnswer(diffFor('a.txt', 'hello', 'HELLO'), { prompt_tokens: 100, completion_tokens: 50 }),
    openAiAnswer(diffFor('b.txt', 'world', 'WORLD'), { prompt_tokens: 80, completion_tokens: 40 })
  )
  verifier.replies.push(
    openAiAnswer('The diff upper-cases a.txt.\nVERDICT: CONFIRMED a.txt now says HELLO', { prompt_tokens: 300, completion_tokens: 20 }),
    openAiAnswer('Only one word changed.\nVERDICT: REFUTED b.txt is not fully checked', { prompt_tokens: 300, completion_tokens: 20 })
  )
  const { dataDir, listed, events, status } = await sprintWith(
    {
      default_agent: 'author',
      agents: { author: provider(author.baseUrl, 'writer'), checker: provider(verifier.baseUrl, 'judge') },
      cross_verify: { after_task: true }
    },
    // b depends on a, so the verifier is asked about a first.
    [task('1', 'a.txt'), task('2', 'b.txt', ['1'])]
  )
  const [first, second] = listed
  assert.ok(first && second)
  assert.deepEqual(
    listed.map((t) => t.status),
    ['DONE', 'DONE'],
    'a verdict never changes the status'
  )
  assert.equal(author.requests.length, 2, 'the author is never asked to verify')
  assert.equal(verifier.requests.length, 2)
  const prompt = (verifier.requests[0]!.body as { messages: { content: string }[] }).messages.map((m) => m.content).join('\n')
  assert.match(prompt, /read-only verifier/)
  assert.match(prompt, /\+HELLO/, "the verifier saw the task's diff")

  assert.equal(first.xverify?.verdict, 'CONFIRMED')
  assert.equal(first.xverify?.closed, true)
  assert.equal(first.xverify?.verifier?.agent, 'checker')
  assert.equal(first.xverify?.settlement, 'closed')
  assert.match(first.xverify?.receiptRef ?? '', /^cross-verify-verdict:sha256:[0-9a-f]{64}$/)
  const check = checkReceipt(dataDir, first.xverify!.receiptRef!)
  assert.equal(check.ok, true, check.problems.join('; '))

  assert.equal(second.xverify?.verdict, 'REFUTED')
  assert.equal(second.xverify?.closed, false)
  assert.equal(second.xverify?.receiptRef, null)
  assert.match(second.xverify?.reason ?? '', /not fully checked/)

  // Tokens and cost per task are the author's attempts only (the verifier's usage is in its receipt).
  assert.deepEqual(first.usage, { inputTokens: 100, outputTokens: 50, costUsd: 0.0002 })
  assert.deepEqual(second.usage, { inputTokens: 80, outputTokens: 40, costUsd: 0.00016 })

  const verdicts = events.filter((e) => e.type === 'task_xverified')
  assert.deepEqual(
    verdicts.map((e) => [e.taskId, e.data]),
    [
      [
        first.id,
        { verdict: 'CONFIRMED', closed: true, reason: 'a.txt now says HELLO', verifier: 'checker', receiptRef: first.xverify!.receiptRef }
      ],
      [second.id, { verdict: 'REFUTED', closed: false, reason: 'b.txt is not fully checked', verifier: 'checker', receiptRef: null }]
    ]
  )
  // quartet status shows the verdicts: a column, and the whole verdict in --json.
  const table = await status()
  assert.equal(table.code, 0, table.stderr)
  assert.match(table.stdout, /XVERIFY/)
  assert.match(table.stdout, new RegExp(`${first.id} +DONE .*CONFIRMED \\(closed\\)`))
  assert.match(table.stdout, new RegExp(`${second.id} +DONE .*REFUTED`))
  const json = JSON.parse((await status('--json')).stdout) as { tasks: { id: string; xverify: { verdict: string } | null }[] }
  assert.deepEqual(
    json.tasks.map((t) => [t.id, t.xverify?.verdict]),
    [
      [first.id, 'CONFIRMED'],
      [second.id, 'REFUTED']
    ]
  )

  const done = events.findIndex((e) => e.type === 'task_done' && e.taskId === first.id)
  assert.ok(done >= 0 && done < events.indexOf(verdicts[0]!), 'the verdict follows the task ending DONE')
})

test('with one provider the verdict is an honest SKIPPED; with after_task off nothing is verified', async () => {
  const author = await startScriptedServer()
  after(() => author.close())
  author.replies.push(openAiAnswer(diffFor('a.txt', 'hello', 'HELLO')), openAiAnswer(diffFor('a.txt', 'hello', 'HELLO')))
  const agents = { author: provider(author.baseUrl, 'writer'), again: provider(author.baseUrl, 'other-model') }

  const alone = await sprintWith({ default_agent: 'author', agents, cross_verify: { after_task: true } }, [task('1', 'a.txt')])
  assert.equal(alone.listed[0]?.status, 'DONE')
  assert.equal(alone.listed[0]?.xverify?.verdict, 'SKIPPED')
  assert.equal(alone.listed[0]?.xverify?.closed, false)
  assert.match(alone.listed[0]?.xverify?.reason ?? '', /no-second-provider/)
  assert.equal(author.requests.length, 1, 'no verifier call on the same provider')

  const off = await sprintWith({ default_agent: 'author', agents }, [task('1', 'a.txt')])
  assert.equal(off.listed[0]?.status, 'DONE')
  assert.equal(off.listed[0]?.xverify, null)
  assert.equal(
    off.events.some((e) => e.type === 'task_xverified'),
    false
  )
  assert.equal(author.requests.length, 2)
})
