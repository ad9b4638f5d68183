import assert from 'node:assert/strict'
import { test } from 'node:test'
import { budgetBurn, wallTime } from '../../../../src/services/orchestrator/modules/nervous/detectors.js'
import { DEFAULT_PROJECT_CONFIG } from '../../../../src/services/orchestrator/project/config-schema.js'

const config = { ...DEFAULT_PROJECT_CONFIG.nervous, wall_time_seconds: 60, burn_fraction: 0.8 }
const now = new Date('2030-01-01T01:00:00Z')

test('budget burn: at 80 % of the USD or token budget, with the spend rate as evidence; below it, nothing', () => {
  const sprint = { sprintId: 's1', startedAt: '2030-01-01T00:30:00Z', tokensUsed: 1000, costMicroUsd: 8_500_000 }
  const [finding] = budgetBurn(sprint, { sprint_usd: 10 }, now, config)
  assert.equal(finding?.type, 'budget-burn')
  assert.equal(finding?.evidence.fraction, 0.85)
  assert.equal(finding?.evidence.usdPerMinute, 0.283333)
  assert.equal(finding?.recommendation.action, 'kill-job')
  assert.deepEqual(budgetBurn(sprint, { sprint_usd: 20 }, now, config), [])
  assert.equal(budgetBurn(sprint, { sprint_tokens: 1200 }, now, config).length, 1)
  assert.deepEqual(budgetBurn(sprint, {}, now, config), [], 'no budget, nothing to burn')
})

test('wall time: only a task past the limit whose output still grows is a runaway', () => {
  const tasks = [
    { taskId: 'quiet', sprintId: 's1', jobId: 1, startedAt: '2030-01-01T00:00:00Z', currentAction: null },
    { taskId: 'busy', sprintId: 's1', jobId: 1, startedAt: '2030-01-01T00:00:00Z', currentAction: null },
    { taskId: 'young', sprintId: 's1', jobId: 1, startedAt: '2030-01-01T00:59:30Z', currentAction: null }
  ]
  const found = wallTime(tasks, new Set(['busy', 'young']), now, config)
  assert.deepEqual(
    found.map((f) => f.subject),
    ['busy']
  )
})
