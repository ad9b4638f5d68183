import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseDirectives } from '../../../../src/services/orchestrator/engine/planner/structured.js'
import { createTaskApprovalGate } from '../../../../src/services/orchestrator/engine/approval-gate.js'

test("DIRECTIVES.md: `Risk:` sets a task's risk class; an unknown one is an error on its line", () => {
  const parsed = parseDirectives('## Task 1: deploy\n- **Risk:** High\n\n## Task 2: docs\n\n## Task 3: odd\nRisk: spicy\n')
  assert.equal(parsed.plan.tasks[0]!.risk, 'high')
  assert.equal(parsed.plan.tasks[1]!.risk, undefined)
  assert.deepEqual(parsed.errors, [{ line: 7, message: 'Task 3: unknown risk "spicy" (use none, low, medium, high, critical)' }])
})

test('the task gate requires approval exactly for the configured risk classes', () => {
  const gate = createTaskApprovalGate({ service: {} as never, requireForRisk: ['high', 'critical'] })
  const task = {
    key: '1',
    title: 't',
    description: '',
    dependencies: [],
    files: [],
    goCriteria: [],
    noGoCriteria: [],
    priority: 'NORMAL' as const,
    expectChange: true
  }
  assert.equal(gate.requires(task), false)
  assert.equal(gate.requires({ ...task, risk: 'medium' }), false)
  assert.equal(gate.requires({ ...task, risk: 'high' }), true)
  assert.equal(gate.requires({ ...task, risk: 'critical' }), true)
})
