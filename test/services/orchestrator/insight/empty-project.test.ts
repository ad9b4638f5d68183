import assert from 'node:assert/strict'
import { test } from 'node:test'
import { nodePlatform } from '../../../../src/core/platform.js'
import { recordSprintCoverage } from '../../../../src/services/orchestrator/modules/insight/coverage.service.js'
import { loadProjectConfig } from '../../../../src/services/orchestrator/project/config.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'
import { nonZeroCells, runSprintToEnd } from './helpers.js'

test('an empty git project answers every insight route honestly and without data', async () => {
  const orch = await startOrchestrator()
  const get = async (url: string) => {
    const response = await orch.call('GET', url)
    assert.equal(response.status, 200, `${url}: ${response.body}`)
    return response.json
  }
  assert.deepEqual(await get('/api/agents'), [])
  assert.deepEqual(await get('/api/routing/distribution'), {
    agents: { entries: [], total: 0 },
    skills: { entries: [], total: 0 },
    warnings: [],
    totalOutcomes: 0
  })
  assert.deepEqual(await get('/api/coverage'), { history: [], budget: { perSprint: null } })

  const docs = await get('/api/docs/health')
  // README.md is the only file: there is no code it could fall behind.
  assert.deepEqual(
    docs.rows.map((r: { path: string; state: string; doc_rank: number; lastCodeCommit: unknown }) => [
      r.path,
      r.state,
      r.doc_rank,
      r.lastCodeCommit
    ]),
    [['README.md', 'EXEMPT', 0, null]]
  )
  assert.equal(docs.heatmap.length, 25)
  assert.deepEqual(nonZeroCells(docs.heatmap), ['0/EXEMPT=1'])

  const health = await get('/api/evaluate-health')
  assert.deepEqual(health.counts, { EVALUATION_FAULT: 0, EVALUATE_ABORTED: 0, EVALUATE_PREMATURE: 0, RESULT_CONTRACT_DRIFT: 0 })
  assert.deepEqual([health.lastEventAt, health.sprintsScanned, health.clean], [null, 0, true])

  assert.deepEqual(await get('/api/limits'), {
    unavailable: true,
    reason: 'no usage windows configured: add limits.windows to .quartet/config.json',
    windows: []
  })

  const kpi = await get('/api/kpi')
  assert.equal(kpi.sprintId, null)
  assert.ok(kpi.kpis.length >= 6)
  for (const entry of kpi.kpis) assert.deepEqual([entry.value, entry.status], [null, 'unknown'], entry.id)
  assert.deepEqual(Object.keys(kpi.kpis[0]).sort(), ['direction', 'format', 'id', 'status', 'target', 'title', 'unit', 'value'])
  const missing = await orch.call('GET', '/api/kpi?sprint=s999')
  assert.equal(missing.status, 404)
  assert.match(missing.json.error, /s999/)
  assert.deepEqual(await get('/api/kpi/trend?kpiId=done_rate'), { kpiId: 'done_rate', series: [] })
  const unknownKpi = await orch.call('GET', '/api/kpi/trend?kpiId=happiness')
  assert.equal(unknownKpi.status, 404)
  assert.match(unknownKpi.json.error, /happiness/)

  assert.deepEqual(await get('/api/git/status'), { branch: 'main', ahead: 0, behind: 0, entries: [], clean: true, taskBranches: [] })
  assert.deepEqual(await get('/api/git/diff'), { text: '', truncated: false })
  const proposal = await get('/api/git/proposal')
  assert.deepEqual(proposal, {
    note: 'clean',
    files: [],
    insertions: 0,
    deletions: 0,
    suggestedMessage: 'quartet: run local changes',
    taskBranches: [],
    target: 'main',
    tasks: []
  })

  const doctor = await get('/api/doctor')
  assert.equal(doctor.ok, false)
  const agents = doctor.checks.find((c: { name: string }) => c.name === 'agents')
  assert.deepEqual([agents.passed, agents.required], [false, true])
  assert.equal(doctor.checks.find((c: { name: string }) => c.name === 'git repository').passed, true)

  assert.deepEqual(await get('/api/debt'), { content: '' })
})

test('a project that is not a git repository: git and docs views say so; one agent doing all the work is an IMBALANCE', async () => {
  const orch = await startOrchestrator({
    git: false,
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { agents: { solo: { kind: 'command', argv: ['/bin/sh', '-c', 'echo done > "out-$0.txt"', '{taskId}'] } } },
    directives: '## Task 1: only task\nWrite a file.\n'
  })
  const sprintId = await runSprintToEnd(orch)
  const get = async (url: string) => (await orch.call('GET', url)).json

  assert.deepEqual(await get('/api/git/status'), {
    note: 'not-a-git-repo',
    branch: null,
    ahead: 0,
    behind: 0,
    entries: [],
    clean: true,
    taskBranches: []
  })
  assert.deepEqual(await get('/api/git/diff?staged=1'), { note: 'not-a-git-repo', text: '', truncated: false })
  const proposal = await get('/api/git/proposal?intent=Ship%20it')
  assert.deepEqual([proposal.note, proposal.files, proposal.suggestedMessage], ['not-a-git-repo', [], 'Ship it'])
  const docs = await get('/api/docs/health')
  assert.deepEqual([docs.note, docs.rows, docs.heatmap.length, nonZeroCells(docs.heatmap)], ['not-a-git-repo', [], 25, []])

  const distribution = await get('/api/routing/distribution')
  assert.deepEqual(distribution.agents, { entries: [{ id: 'solo', tasks: 1, pct: 100 }], total: 1 })
  assert.deepEqual(distribution.warnings, ['IMBALANCE: "solo" dominates with 100% (threshold: 80%)'])
  assert.equal(distribution.totalOutcomes, 1)

  const doctor = await get('/api/doctor')
  const repo = doctor.checks.find((c: { name: string }) => c.name === 'git repository')
  assert.deepEqual([repo.passed, repo.required, doctor.ok], [false, false, true])

  // No coverage command configured: nothing is run or stored, the sprint shows coverage null.
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  const recorded = await recordSprintCoverage({
    repositories: orch.repositories,
    projectId,
    sprintId,
    projectRoot: orch.project.root,
    config: loadProjectConfig(orch.project.root).config,
    platform: nodePlatform()
  })
  assert.equal(recorded, null)
  assert.deepEqual(await get('/api/coverage'), {
    history: [{ sprintId, coverage: null, tasks: 1, completed: 1 }],
    budget: { perSprint: null }
  })
  assert.deepEqual(await get('/api/debt'), { content: '' })
})
