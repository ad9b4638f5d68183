import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { planWithAi, readTaskList } from '../../../../src/services/orchestrator/engine/planner/ai.js'
import { PlanError, planSprint } from '../../../../src/services/orchestrator/engine/planner/index.js'
import type { ProviderAgent } from '../../../../src/services/orchestrator/engine/providers/client.js'
import { DEFAULT_PROJECT_CONFIG, type ProjectConfig } from '../../../../src/services/orchestrator/project/config-schema.js'
import { nodePlatform, openAiAnswer, startScriptedServer, type ScriptedServer } from '../providers/peers.js'

let server: ScriptedServer
before(async () => {
  server = await startScriptedServer()
})
after(() => server.close())

const agent = (): ProviderAgent => ({
  kind: 'openai-compatible',
  base_url: server.baseUrl,
  model: 'planner',
  price_per_mtok: { input: 1, output: 1 }
})
const task = (key: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  key,
  title: `Task ${String(key)}`,
  description: 'do it',
  dependencies: [],
  files: ['src/x.ts'],
  goCriteria: ['works'],
  noGoCriteria: [],
  priority: 'normal',
  expectChange: true,
  ...extra
})
const DIRECTIVES = 'Intro text.\n\n## Task 1: From the blocks\nDo the thing.\n'

function config(agents: ProjectConfig['agents'], planner: ProjectConfig['planner'] = { mode: 'auto' }): ProjectConfig {
  return { ...structuredClone(DEFAULT_PROJECT_CONFIG), agents, planner }
}

test('ai planner: a valid list in a ```json fence becomes PlannedTasks (keys as strings, priorities upper-case)', async () => {
  const list = [task(1, { priority: 'high', agent: 'coder' }), task(2, { dependencies: [1], expectChange: false })]
  server.replies.push(openAiAnswer(`Plan:\n\`\`\`json\n${JSON.stringify(list)}\n\`\`\``, { prompt_tokens: 200, completion_tokens: 100 }))
  const result = await planWithAi({ agent: agent(), directives: DIRECTIVES, agentNames: ['coder'], platform: nodePlatform })
  assert.equal(result.attempts, 1)
  assert.deepEqual(result.tasks[0], {
    key: '1',
    title: 'Task 1',
    description: 'do it',
    dependencies: [],
    files: ['src/x.ts'],
    goCriteria: ['works'],
    noGoCriteria: [],
    priority: 'HIGH',
    agent: 'coder',
    expectChange: true
  })
  assert.deepEqual(result.tasks[1]?.dependencies, ['1'])
  assert.equal(result.tasks[1]?.expectChange, false)
  assert.deepEqual(result.usage, { inputTokens: 200, outputTokens: 100, costUsd: 0.0003, model: 'planner' })
  const sent = server.requests.at(-1)!.body.messages
  assert.match(sent[0].content, /"expectChange"/)
  assert.match(sent[0].content, /Configured agents: coder\./)
  assert.match(sent[1].content, /## Task 1: From the blocks/)
})

test('ai planner: an invalid first list is sent back with its errors; the corrected second list is used', async () => {
  const bad = [task(1, { priority: 'urgent' }), { key: 2, title: 'no fields' }]
  server.replies.push(
    openAiAnswer(JSON.stringify(bad)),
    openAiAnswer(JSON.stringify({ tasks: [task(1), task(2, { dependencies: ['1'] })] }))
  )
  const result = await planWithAi({ agent: agent(), directives: DIRECTIVES, agentNames: [], platform: nodePlatform })
  assert.equal(result.attempts, 2)
  assert.deepEqual(
    result.tasks.map((t) => t.key),
    ['1', '2']
  )
  assert.equal(result.usage.inputTokens, 20)
  const retry = server.requests.at(-1)!.body.messages
  assert.equal(retry.length, 4)
  assert.equal(retry[2].role, 'assistant')
  assert.match(retry[3].content, /task\[0\]\.priority: must be one of "critical", "high", "normal", "low"/)
  assert.match(
    retry[3].content,
    /task\[1\]: must have required properties description, dependencies, files, goCriteria, noGoCriteria, priority, expectChange\n/
  )
})

test('ai planner: two invalid answers → PlanError naming the last problems (a cycle, an unknown agent)', async () => {
  const cyclic = JSON.stringify([task('a', { dependencies: ['b'] }), task('b', { dependencies: ['a'], agent: 'ghost' })])
  server.replies.push(openAiAnswer('I cannot produce JSON today.'), openAiAnswer(cyclic))
  const error = await planWithAi({ agent: agent(), directives: DIRECTIVES, agentNames: ['coder'], platform: nodePlatform }).then(
    () => null,
    (e: unknown) => e
  )
  assert.ok(error instanceof PlanError)
  assert.deepEqual(error.errors, ['task b names unknown agent "ghost" (configured: coder)', 'dependency cycle: Task a → Task b → Task a'])
})

test('readTaskList: no JSON, broken JSON, empty list are refused with a reason', () => {
  assert.deepEqual(readTaskList('nothing here', []).errors, ['the answer holds no JSON array'])
  assert.match(readTaskList('[{"key": 1,', []).errors?.[0] ?? '', /does not parse/)
  assert.match(readTaskList('[]', []).errors?.[0] ?? '', /^the list: /)
  assert.deepEqual(readTaskList(JSON.stringify([{ ...task(1), owner: 'me' }]), []).errors, [
    'task[0]: must not have additional properties (owner)'
  ])
})

test('planSprint structured: the blocks, or a PlanError listing lines; no blocks is an error', async () => {
  const ok = await planSprint({ mode: 'structured', directives: DIRECTIVES, config: config({}), platform: nodePlatform })
  assert.equal(ok.plan.mode, 'structured')
  assert.equal(ok.context, 'Intro text.')
  assert.equal(ok.usage, null)
  const broken = await planSprint({
    mode: 'structured',
    directives: '## Task 1: a\nPriority: soon\n',
    config: config({}),
    platform: nodePlatform
  }).then(
    () => null,
    (e: unknown) => e
  )
  assert.ok(broken instanceof PlanError)
  assert.deepEqual(broken.errors, ['line 2: Task 1: unknown priority "soon" (use critical, high, normal or low)'])
  await assert.rejects(planSprint({ mode: 'structured', directives: 'just prose', config: config({}), platform: nodePlatform }), PlanError)
})

test('planSprint ai: refused without a provider agent, or when planner.agent is a command agent', async () => {
  await assert.rejects(
    planSprint({
      mode: 'ai',
      directives: DIRECTIVES,
      config: config({ cli: { kind: 'command', preset: 'claude' } }),
      platform: nodePlatform
    }),
    /no provider agent is configured/
  )
  const cfg = config({ cli: { kind: 'command', preset: 'claude' }, llm: agent() }, { mode: 'ai', agent: 'cli' })
  await assert.rejects(planSprint({ mode: 'ai', directives: DIRECTIVES, config: cfg, platform: nodePlatform }), /is a command agent/)
})

test('planSprint auto: provider answering → ai; unreachable → structured; failing chat → structured fallback; each says why', async () => {
  server.replies.push({ body: { data: [{ id: 'planner' }] } }, openAiAnswer(JSON.stringify([task(1), task(2)])))
  const viaAi = await planSprint({ mode: 'auto', directives: DIRECTIVES, config: config({ llm: agent() }), platform: nodePlatform })
  assert.equal(viaAi.plan.mode, 'ai')
  assert.equal(viaAi.plan.tasks.length, 2)
  assert.deepEqual(viaAi.warnings, ['planned by provider agent "llm" (mode auto: it answered)'])
  assert.equal(viaAi.usage?.inputTokens, 10)

  const none = await planSprint({ mode: 'auto', directives: DIRECTIVES, config: config({}), platform: nodePlatform })
  assert.equal(none.plan.mode, 'structured')
  assert.deepEqual(none.warnings, ['planned from DIRECTIVES.md task blocks: no provider agent is configured'])

  const gone = await startScriptedServer()
  const goneUrl = gone.baseUrl
  await gone.close()
  const unreachable = await planSprint({
    mode: 'auto',
    directives: DIRECTIVES,
    config: config({ llm: { ...agent(), base_url: goneUrl } }),
    platform: nodePlatform
  })
  assert.equal(unreachable.plan.mode, 'structured')
  assert.match(unreachable.warnings[0] ?? '', /planner agent "llm" did not answer \(.*ECONNREFUSED\)/)

  server.replies.push({ body: { data: [] } }, { status: 400, body: { error: 'context too long' } })
  const failed = await planSprint({ mode: 'auto', directives: DIRECTIVES, config: config({ llm: agent() }), platform: nodePlatform })
  assert.equal(failed.plan.mode, 'structured')
  assert.match(failed.warnings[0] ?? '', /planner agent "llm" failed \(.*HTTP 400: context too long\)/)
  assert.deepEqual(
    failed.plan.tasks.map((t) => t.title),
    ['From the blocks']
  )
})
