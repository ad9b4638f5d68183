import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { nodePlatform } from '../../../../src/core/platform.js'
import { recordSprintCoverage } from '../../../../src/services/orchestrator/modules/insight/coverage.service.js'
import { loadProjectConfig } from '../../../../src/services/orchestrator/project/config.js'
import { createTempProject, eventually, startOrchestrator } from '../../../helpers/orchestrator.js'
import { openAiAnswer, startScriptedServer } from '../providers/peers.js'
import { runSprintToEnd } from './helpers.js'

const RESULT_LINE = JSON.stringify({
  type: 'result',
  usage: { input_tokens: 1000, output_tokens: 500 },
  total_cost_usd: 0.25,
  result: 'ok'
})
const GREET = 'export const greeting = "hello"\nexport const target = "world"\n'
const LOUDER =
  '--- a/src/greet.ts\n+++ b/src/greet.ts\n@@ -1,2 +1,2 @@\n' +
  '-export const greeting = "hello"\n+export const greeting = "HELLO"\n export const target = "world"\n'

const DIRECTIVES = `# Insight demo

## Task 1: write notes
Write the notes file.

## Task 2: think only
Agent: idle
Think hard.

## Task 3: greet louder
Agent: coder
Files: src/greet.ts
Make the greeting loud.

## Task 4: crash the check
Check: kill -KILL $$
Write another file.

## Task 5: follow up
Depends on: 2
Use the thoughts.
`

test(
  'after a real sprint (DONE, NO_GO, a retried task, a crashed check, ' + 'a blocked task) every insight view reports what happened',
  async () => {
    const provider = await startScriptedServer()
    after(() => provider.close())
    // The provider agent's first call fails transiently (retried), the second returns a diff.
    provider.replies.push(
      { status: 503, body: { error: 'overloaded' } },
      openAiAnswer(`\`\`\`diff\n${LOUDER}\`\`\``, { prompt_tokens: 100, completion_tokens: 50 })
    )

    const project = createTempProject({
      directives: DIRECTIVES,
      config: {
        agents: {
          writer: {
            kind: 'command',
            argv: ['/bin/sh', '-c', `echo "$0" > "work-$0.txt"; echo '${RESULT_LINE}'`, '{taskId}'],
            output: 'claude-stream-json'
          },
          idle: { kind: 'command', argv: ['/bin/sh', '-c', 'echo thinking'] },
          coder: { kind: 'openai-compatible', base_url: provider.baseUrl, model: 'coder', price_per_mtok: { input: 1, output: 2 } }
        },
        default_agent: 'writer',
        planner: { mode: 'structured' },
        engine: { max_workers: 1, retry_base_delay_ms: 0, max_attempts: 3 },
        coverage: { command: 'printf "File      | %% Stmts |\\nAll files |   83.5 |   70 |\\n"', budget_per_sprint: 80 },
        budget: { sprint_usd: 5 },
        limits: {
          windows: [
            { name: 'session', hours: 5, tokens: 4000 },
            { name: 'week', hours: 168, usd: 10 },
            { name: 'tight', hours: 1, usd: 0.5 }
          ]
        }
      }
    })
    project.write('src/greet.ts', GREET)
    project.git('add', '-A')
    project.git('commit', '-q', '-m', 'greet')
    const orch = await startOrchestrator({ project, env: { QUARTET_CONTROL_MUTATIONS: '1' } })
    const get = async (url: string) => {
      const response = await orch.call('GET', url)
      assert.equal(response.status, 200, `${url}: ${response.body}`)
      return response.json
    }
    const sprintId = await runSprintToEnd(orch)
    const taskStatus = async (key: string) => (await orch.repositories.tasks.get(`${sprintId}-${key}`))!.status
    assert.deepEqual(await Promise.all(['1', '2', '3', '4', '5'].map(taskStatus)), ['DONE', 'NO_GO', 'DONE', 'NO_GO', 'BLOCKED'])
    const projectId = await orch.repositories.projects.ensure(project.root)

    // Agents: real usage per configured agent.
    const agents = await get('/api/agents')
    assert.deepEqual(
      agents.map((a: { id: string }) => a.id),
      ['writer', 'idle', 'coder']
    )
    const writer = agents[0]
    assert.deepEqual(
      [writer.source, writer.enabled, writer.totalUses, writer.successRate, writer.validity, writer.routable, writer.provenance],
      ['config', true, 2, 0.5, 'valid', true, { file: '.quartet/config.json', key: 'agents.writer', default: true }]
    )
    assert.deepEqual(
      [writer.usage.inputTokens, writer.usage.outputTokens, writer.usage.costUsd, writer.usage.done, writer.usage.noGo],
      [2000, 1000, 0.5, 1, 1]
    )
    assert.equal(typeof writer.usage.medianAgentMs, 'number')
    assert.match(writer.prompt, /^\/bin\/sh -c /)
    assert.deepEqual([agents[1].totalUses, agents[1].successRate, agents[1].provenance.default], [1, 0, false])
    assert.deepEqual(
      [
        agents[2].kind,
        agents[2].totalUses,
        agents[2].successRate,
        agents[2].usage.inputTokens,
        agents[2].usage.outputTokens,
        agents[2].usage.costUsd
      ],
      ['openai-compatible', 2, 0.5, 100, 50, 0.0002]
    )

    // Routing: five attempts (the retry counts as a routing decision), no agent dominates.
    const distribution = await get('/api/routing/distribution')
    assert.deepEqual(distribution.agents, {
      entries: [
        { id: 'coder', tasks: 2, pct: 40 },
        { id: 'writer', tasks: 2, pct: 40 },
        { id: 'idle', tasks: 1, pct: 20 }
      ],
      total: 5
    })
    assert.deepEqual([distribution.warnings, distribution.totalOutcomes], [[], 5])

    // Coverage: the sprint job measured it once the sprint ended; measuring again updates the same row.
    await eventually(async () => (await get('/api/coverage')).history[0]?.coverage === 83.5, 30_000, 'the job to record coverage')
    const config = loadProjectConfig(project.root).config
    const recorded = await recordSprintCoverage({
      repositories: orch.repositories,
      projectId,
      sprintId,
      projectRoot: project.root,
      config,
      platform: nodePlatform()
    })
    assert.deepEqual([recorded?.coverage, recorded?.exitCode], [83.5, 0])
    assert.deepEqual(await get('/api/coverage'), {
      history: [{ sprintId, coverage: 83.5, tasks: 5, completed: 2 }],
      budget: { perSprint: 80 }
    })

    // Evaluation health: task 4's check was killed (fault), task 2's agent changed nothing (premature).
    const health = await get('/api/evaluate-health?n=5')
    assert.deepEqual(health.counts, { EVALUATION_FAULT: 1, EVALUATE_ABORTED: 0, EVALUATE_PREMATURE: 1, RESULT_CONTRACT_DRIFT: 0 })
    assert.deepEqual([health.sprintsScanned, health.clean, typeof health.lastEventAt], [1, false, 'string'])

    // Limits: 3150 tokens of 4000 in 5 h (warn); $0.5002 of $10 a week (ok); of $0.5 an hour (block).
    const limits = await get('/api/limits')
    assert.deepEqual([limits.unavailable, limits.reason], [false, null])
    const windows = Object.fromEntries(limits.windows.map((w: { name: string }) => [w.name, w]))
    assert.deepEqual(
      [windows.session.pct, windows.session.verdict, windows.session.used, windows.session.limit],
      [78.8, 'warn', { tokens: 3150, usd: 0.5002 }, { tokens: 4000, usd: null }]
    )
    assert.deepEqual([windows.week.pct, windows.week.verdict], [5, 'ok'])
    assert.deepEqual([windows.tight.pct, windows.tight.verdict], [100, 'block'])
    assert.ok(Date.parse(windows.session.resetAt.text) > Date.now() + 4 * 3_600_000)
    assert.equal(windows.session.resetAt.timezone, null)

    // KPIs of the sprint, judged against their targets.
    const kpi = await get(`/api/kpi?sprint=${sprintId}`)
    assert.equal(kpi.sprintId, sprintId)
    const byId = Object.fromEntries(kpi.kpis.map((k: { id: string }) => [k.id, k]))
    const pick = (id: string) => [byId[id].value, byId[id].target, byId[id].status]
    assert.deepEqual(pick('done_rate'), [40, 80, 'critical'])
    assert.deepEqual(pick('no_go_rate'), [50, 20, 'critical'])
    assert.deepEqual(pick('first_attempt_success'), [25, 70, 'critical'])
    assert.deepEqual(pick('cost_per_done_task'), [0.2501, 1, 'healthy'])
    assert.deepEqual(pick('tokens_per_sprint'), [3150, null, 'unknown'])
    assert.deepEqual(pick('coverage'), [83.5, 80, 'healthy'])
    assert.equal(typeof byId.engine_overhead_ms.value, 'number')
    assert.deepEqual(byId.done_rate.title, { en: 'Tasks done' })
    assert.deepEqual((await get('/api/kpi')).sprintId, sprintId)
    assert.deepEqual(await get('/api/kpi/trend?kpiId=first_attempt_success&n=abc'), {
      kpiId: 'first_attempt_success',
      series: [{ periodKey: sprintId, value: 25, status: 'critical' }]
    })

    // Debt: what failed, and why.
    const debt = (await get('/api/debt')).content as string
    assert.match(debt, new RegExp(`^# Debt\\n\\n## ${sprintId}: `))
    assert.match(debt, new RegExp(`\\*\\*NO_GO\\*\\* \`${sprintId}-2\` think only: agent exited 0 but changed no files`))
    assert.match(debt, new RegExp(`\\*\\*NO_GO\\*\\* \`${sprintId}-4\` crash the check: check command failed \\(exit SIGKILL\\)`))
    assert.match(debt, new RegExp(`\\*\\*BLOCKED\\*\\* \`${sprintId}-5\` follow up: dependency 2 ended NO_GO`))
    assert.doesNotMatch(debt, new RegExp(`\`${sprintId}-1\``))

    // Doctor: the default agent is runnable.
    const doctor = await get('/api/doctor')
    assert.equal(doctor.checks.find((c: { name: string }) => c.name === 'agent writer').passed, true)
    assert.equal(doctor.checks.find((c: { name: string }) => c.name === 'project config').passed, true)

    // Git: task branches to review, one merged; then a dirty checkout.
    const branch = (key: string) => `quartet/${sprintId}/${sprintId}-${key}`
    project.git('merge', '-q', '--no-edit', branch('1'))
    project.write('README.md', '# demo project\n\nMore words.\n')
    project.write('staged.txt', 'one\ntwo\n')
    project.git('add', 'staged.txt')
    project.write('new.txt', 'a\nb\nc\n')
    const status = await get('/api/git/status')
    assert.deepEqual([status.branch, status.ahead, status.behind, status.clean], ['main', 0, 0, false])
    assert.deepEqual(status.entries, [
      { path: 'README.md', code: ' M' },
      { path: 'staged.txt', code: 'A ' },
      { path: 'new.txt', code: '??' }
    ])
    const branches = Object.fromEntries(status.taskBranches.map((b: { branch: string }) => [b.branch, b]))
    assert.deepEqual([branches[branch('1')].merged, branches[branch('1')].ahead, branches[branch('1')].uncommitted], [true, 0, false])
    assert.deepEqual(
      [branches[branch('3')].merged, branches[branch('3')].ahead, branches[branch('3')].taskId, branches[branch('3')].sprintId],
      [false, 1, `${sprintId}-3`, sprintId]
    )
    assert.match(branches[branch('3')].commits[0].subject, /^greet louder/)
    // Uncommitted work in a merged branch's worktree is not merged.
    const worktreeOf = project
      .git('worktree', 'list', '--porcelain')
      .split('\n\n')
      .find((entry: string) => entry.includes(`branch refs/heads/${branch('1')}`))
    assert.ok(worktreeOf, 'the merged task keeps its worktree until cleanup')
    const worktreePath = worktreeOf.split('\n')[0]!.slice('worktree '.length)
    fs.writeFileSync(path.join(worktreePath, 'unsaved.txt'), 'not on the branch\n')
    const dirty = (await get('/api/git/status')).taskBranches.find((b: { branch: string }) => b.branch === branch('1'))
    assert.deepEqual([dirty.merged, dirty.uncommitted, dirty.ahead], [false, true, 0])
    fs.rmSync(path.join(worktreePath, 'unsaved.txt'))
    assert.equal(branches[branch('5')], undefined)

    const diff = await get('/api/git/diff')
    assert.match(diff.text, /\+More words\./)
    assert.match(diff.text, /staged\.txt/)
    assert.equal(diff.truncated, false)
    const staged = await get('/api/git/diff?staged=1')
    assert.match(staged.text, /staged\.txt/)
    assert.doesNotMatch(staged.text, /More words/)

    const proposal = await get('/api/git/proposal?flowId=flow-1234567890&intent=Polish%20the%20readme')
    assert.deepEqual(proposal.files, [
      { path: 'README.md', insertions: 2, deletions: 0 },
      { path: 'new.txt', insertions: 3, deletions: 0 },
      { path: 'staged.txt', insertions: 2, deletions: 0 }
    ])
    assert.deepEqual([proposal.insertions, proposal.deletions, proposal.note], [7, 0, undefined])
    assert.equal(
      proposal.suggestedMessage,
      'Polish the readme\n\n- README.md (+2 -0)\n- new.txt (+3 -0)\n- staged.txt (+2 -0)\n\nquartet-run: flow-1234567890'
    )
    assert.equal(proposal.taskBranches.length, status.taskBranches.length)
    assert.match((await get('/api/git/proposal')).suggestedMessage, new RegExp(`^quartet: run ${sprintId} changes\\n`))
    assert.equal((await get(`/api/git/proposal?intent=${'x'.repeat(100)}`)).suggestedMessage.split('\n')[0], 'x'.repeat(72))

    // Big diffs are capped.
    project.write('big.txt', 'y'.repeat(70_000))
    project.git('add', 'big.txt')
    const big = await get('/api/git/diff')
    assert.deepEqual([big.text.length, big.truncated], [64_000, true])

    // Docs health: README.md changed after the merged task commit is FRESH again; before it, one commit behind.
    const docs = await get('/api/docs/health')
    const readme = docs.rows.find((r: { path: string }) => r.path === 'README.md')
    assert.deepEqual([readme.state, readme.doc_rank], ['FRESH', 2])

    // An attempt left without an outcome by a finished job, and a cancelled one, count as drift and abort.
    const jobId = (await orch.repositories.jobs.latest(projectId))!.id
    await orch.repositories.attempts.start(`${sprintId}-5`, jobId, 1, 'writer')
    const cancelled = await orch.repositories.attempts.start(`${sprintId}-5`, jobId, 2, 'writer')
    await orch.repositories.attempts.finish(cancelled.id, {
      status: 'CANCELLED',
      exitCode: null,
      reason: 'killed by user',
      transient: false,
      agentMs: 5
    })
    const withFaults = await get('/api/evaluate-health?n=9999')
    assert.deepEqual(withFaults.counts, { EVALUATION_FAULT: 1, EVALUATE_ABORTED: 1, EVALUATE_PREMATURE: 1, RESULT_CONTRACT_DRIFT: 1 })
    assert.ok(fs.existsSync(path.join(project.root, 'work-' + `${sprintId}-1.txt`)))
  }
)
