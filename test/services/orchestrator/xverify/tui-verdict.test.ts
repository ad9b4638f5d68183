import assert from 'node:assert/strict'
import { test } from 'node:test'
import { needsYou, taskLine, type TaskRow } from '../../../../src/services/orchestrator/cli/dashboard/model.js'

const row = (id: string, xverify: TaskRow['xverify']): TaskRow => ({
  id,
  title: `task ${id}`,
  status: 'DONE',
  assignedAgent: 'edit',
  branch: null,
  attempts: 1,
  reason: null,
  startedAt: null,
  finishedAt: null,
  filesChanged: [],
  xverify
})

test('the terminal dashboard shows a task verdict on its line, and a refuted DONE task under needs-you', () => {
  const confirmed = row('s1-1', { verdict: 'CONFIRMED', closed: true, reason: 'fine' })
  const refuted = row('s1-2', { verdict: 'REFUTED', closed: false, reason: 'subtracts\nmore' })
  const none = row('s1-3', null)
  assert.match(taskLine(confirmed, 0, 80), /\[CONFIRMED ✓\] task s1-1/)
  assert.match(taskLine(refuted, 0, 80), /\[REFUTED\] task s1-2/)
  assert.doesNotMatch(taskLine(none, 0, 80), /\[/)
  assert.equal(taskLine(refuted, 0, 80).length, 80)
  assert.deepEqual(needsYou(null, [confirmed, refuted, none], []), [
    { kind: 'xverify REFUTED', text: 's1-2 subtracts', action: 'Enter: log', taskId: 's1-2' }
  ])
})
