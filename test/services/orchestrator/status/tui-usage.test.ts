import assert from 'node:assert/strict'
import { test } from 'node:test'
import { taskLine, usageCells, type TaskRow } from '../../../../src/services/orchestrator/cli/dashboard/model.js'

const row = (attempts: number, usage: TaskRow['usage']): TaskRow => ({
  id: 's1-1',
  title: 'the task',
  status: attempts === 0 ? 'PENDING' : 'DONE',
  assignedAgent: 'edit',
  branch: null,
  attempts,
  reason: null,
  startedAt: null,
  finishedAt: null,
  filesChanged: [],
  usage
})

test('the terminal dashboard shows tokens and cost per task, "unknown" (never 0 or $0) when the agent reported none', () => {
  // The API's answer for a command agent that reports no usage: 0 tokens and a null cost.
  assert.deepEqual(usageCells(row(1, { inputTokens: 0, outputTokens: 0, costUsd: null })), { tokens: 'unknown', cost: 'unknown' })
  // Tokens reported without a price (codex): tokens known, cost unknown.
  assert.deepEqual(usageCells(row(2, { inputTokens: 12_000, outputTokens: 345, costUsd: null })), { tokens: '12.3k', cost: 'unknown' })
  assert.deepEqual(usageCells(row(1, { inputTokens: 1_500_000, outputTokens: 0, costUsd: 0.0042 })), { tokens: '1.5M', cost: '$0.004' })
  assert.deepEqual(usageCells(row(1, { inputTokens: 200, outputTokens: 12, costUsd: 1.5 })), { tokens: '212', cost: '$1.50' })
  // Not run yet, or an older server without usage: nothing to tell.
  assert.deepEqual(usageCells(row(0, { inputTokens: 0, outputTokens: 0, costUsd: null })), { tokens: '-', cost: '-' })
  assert.deepEqual(usageCells(row(1, undefined)), { tokens: '-', cost: '-' })

  const line = taskLine(row(1, { inputTokens: 0, outputTokens: 0, costUsd: null }), 0, 80)
  assert.equal(line.length, 80)
  assert.match(line, /^s1-1 +DONE +edit +- +1 +unknown unknown the task/)
  assert.doesNotMatch(line, /\$0|\b0 tok/)
})
