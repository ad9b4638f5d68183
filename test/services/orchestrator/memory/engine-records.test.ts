import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { recordSprintOutcome } from '../../../../src/services/orchestrator/modules/memory/engine-records.js'
import { createMemoryWriteService } from '../../../../src/services/orchestrator/modules/memory/memory-write.service.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'
import { markExecuting } from '../status/seed.js'
import { localScope, q, v1 } from './helpers.js'

test('the engine records the plan decision, the sprint summary, NO_GO reasons and debt; /api/debt reads the debt entries', async () => {
  const orch = await startOrchestrator({
    env: { QUARTET_CONTROL_MUTATIONS: '1' },
    config: { agents: { sh: { kind: 'command', argv: ['/bin/true'] } }, default_agent: 'sh' },
    directives: '# Memory demo\n\n## Task 1: write parser\nParse.\n\n## Task 2: write lexer\nLex.\n\n## Task 3: glue\nDepends on: 2\n'
  })
  assert.equal((await orch.call('GET', '/api/debt')).json.content, '')
  const planned = await orch.call('POST', '/api/plan')
  assert.equal(planned.status, 200, planned.body)
  const sprintId: string = planned.json.id
  const decision = await v1(orch, `/api/memory/search?${q({ v: '1', type: 'decision' })}`)
  assert.equal(decision.entries.length, 1)
  assert.match(decision.entries[0].entry.content, /^Planned 3 task\(s\) in structured mode\./)

  // The sprint ends: task 1 DONE, task 2 NO_GO with a reason, task 3 BLOCKED behind it (as the scheduler leaves them).
  for (const key of ['1', '2']) await markExecuting(orch, `${sprintId}-${key}`)
  await orch.repositories.tasks.transition(`${sprintId}-1`, 'DONE', { from: ['EXECUTING'], reason: 'ok' })
  await orch.repositories.tasks.transition(`${sprintId}-2`, 'NO_GO', {
    from: ['EXECUTING'],
    reason: 'check command failed (exit 1)\nFAIL lexer.test.ts'
  })
  await orch.repositories.tasks.transition(`${sprintId}-3`, 'BLOCKED', { from: ['PENDING'], reason: 'dependency 2 ended NO_GO' })
  await orch.repositories.sprints.setStatus(sprintId, 'RUNNING')
  await orch.repositories.sprints.setStatus(sprintId, 'COMPLETE', { stopReason: null, finishedAt: new Date().toISOString() })
  const scope = await localScope(orch)
  await recordSprintOutcome(orch.repositories, scope.projectId, sprintId)
  await recordSprintOutcome(orch.repositories, scope.projectId, sprintId) // recording again replaces, never duplicates

  const byType = async (type: string) => (await v1(orch, `/api/memory/search?${q({ v: '1', type })}`)).entries.map((e: any) => e.entry)
  const [summary] = await byType('sprint')
  assert.equal(summary.title, `Sprint ${sprintId}: Memory demo — COMPLETE`)
  assert.match(summary.content, /1 DONE, 1 NO_GO, 1 BLOCKED/)
  assert.equal(summary.sprint_num, 1)
  const errors = await byType('error')
  assert.deepEqual(
    errors.map((e: any) => e.title),
    [`NO_GO ${sprintId}-2: write lexer`]
  )
  assert.equal(errors[0].content, 'check command failed (exit 1)\nFAIL lexer.test.ts')
  assert.equal((await byType('debt')).length, 2)
  const found = await v1(orch, `/api/memory/search?${q({ v: '1', q: 'lexer failed', mode: 'and' })}`)
  assert.ok(found.entries.some((e: any) => e.entry.type === 'error'))

  const debt = (await orch.call('GET', '/api/debt')).json.content as string
  assert.equal(
    debt,
    `# Debt\n\n## ${sprintId}: Memory demo\n\n- **NO_GO** \`${sprintId}-2\` write lexer: check command failed (exit 1)\n` +
      `- **BLOCKED** \`${sprintId}-3\` glue: dependency 2 ended NO_GO\n`
  )
  // A resolved debt entry leaves the list.
  const entry = (await byType('debt')).find((e: any) => e.title.startsWith('BLOCKED'))
  await orch.repositories.memory.upsert(scope, `task:${sprintId}-3:debt`, {
    type: 'debt',
    source: 'user',
    title: entry.title,
    content: entry.content,
    status: 'resolved',
    sprintId,
    sprintNum: 1,
    metadata: JSON.parse(entry.metadata)
  })
  assert.doesNotMatch((await orch.call('GET', '/api/debt')).json.content, /BLOCKED/)
})

test('importing a folder of markdown notes: titles, front matter, folder tags; importing again replaces', async () => {
  const orch = await startOrchestrator()
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-notes-'))
  fs.mkdirSync(path.join(folder, 'ops'))
  fs.writeFileSync(path.join(folder, 'ops', 'backups.md'), '# Backups\n\nNightly snapshots at 02:00.\n')
  fs.writeFileSync(
    path.join(folder, 'adr-7.md'),
    '---\ntitle: Use SQLite by default\ntype: decision\ntags: [storage, db]\n---\nEmbedded first.\n'
  )
  fs.writeFileSync(path.join(folder, 'empty.md'), '')
  fs.writeFileSync(path.join(folder, 'notes.txt'), 'not markdown')
  const writes = createMemoryWriteService(orch.repositories.memory)
  const scope = await localScope(orch)
  assert.deepEqual(await writes.importFolder(scope, folder), { imported: 2, skipped: [{ file: 'empty.md', reason: 'the note is empty' }] })
  fs.writeFileSync(path.join(folder, 'ops', 'backups.md'), '# Backups\n\nHourly snapshots.\n')
  assert.equal((await writes.importFolder(scope, folder)).imported, 2)
  const all = (await v1(orch, '/api/memory/search?v=1')).entries.map((e: any) => e.entry)
  assert.deepEqual(all.map((e: any) => [e.type, e.title, e.tags, e.source]).sort(), [
    ['decision', 'Use SQLite by default', 'storage db', 'import'],
    ['memory', 'Backups', 'ops', 'import']
  ])
  assert.match(all.find((e: any) => e.title === 'Backups').content, /Hourly/)
  assert.equal((await v1(orch, `/api/memory/search?${q({ v: '1', q: 'nightly' })}`)).state, 'ABSENT')
  fs.rmSync(folder, { recursive: true, force: true })
})
