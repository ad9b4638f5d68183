/**
 * A human's decision racing a kill of the task whose agent waits for it (the server writes both; the job process
 * sees its agent die): the task ends exactly once, and no request is left pending.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eventually } from '../../../helpers/orchestrator.js'
import { decide } from './helpers.js'
import { sprintEnded, startAskingRun, taskEvents, taskStatus } from './run-helpers.js'

async function raceKill(decision: 'allow' | 'deny') {
  const { orch, approvalId } = await startAskingRun()
  await eventually(async () => (await taskStatus(orch)) === 'AWAITING_APPROVAL', 10_000, 'the task to wait')
  const [killed, decided] = await Promise.all([orch.call('POST', '/api/kill/s1-1'), decide(orch, approvalId, { decision })])
  assert.equal(killed.status, 200, killed.body)
  // Either the decision landed first (200) or the kill closed the request first (409: already decided).
  assert.ok([200, 409].includes(decided.status), decided.body)
  await sprintEnded(orch)
  const final = (await orch.repositories.tasks.get('s1-1'))?.status
  // An allowed agent may finish its work before the kill lands: then the kill finds nothing to stop.
  const finished = decision === 'allow' ? 'DONE' : 'NO_GO'
  assert.equal(final, killed.json.killed ? 'CANCELLED' : finished, `${decision}: ${final}, killed ${killed.json.killed}`)
  const entry = (await orch.call('GET', `/api/approvals/${approvalId}`)).json
  assert.notEqual(entry.category, 'pending')
  assert.equal((await orch.call('GET', '/api/approvals')).json.pending.length, 0)
  const endings = (await taskEvents(orch)).filter((e) => ['task_done', 'task_no_go', 'task_cancelled', 'task_killed'].includes(e.type))
  assert.equal(endings.length, 1, endings.map((e) => e.type).join(' '))
}

test('an allow racing a kill of the waiting task: the task ends once, and no request is left pending', () => raceKill('allow'))

test('a deny racing a kill of the waiting task: the task ends once, and no request is left pending', () => raceKill('deny'))
