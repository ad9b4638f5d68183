import assert from 'node:assert/strict'
import { test } from 'node:test'
import Value from 'typebox/value'
import { SearchBody } from '../../../../src/services/orchestrator/modules/memory/memory.schemas.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'
import { note, q, seedEntries } from './helpers.js'

// The v1 search body is written with JSON.stringify, not the route's schema serializer: every view
// state must therefore be exactly its schema — no field missing, of another type, or extra.
test('every v1 search body is exactly its response schema: AVAILABLE with entries and deferrals, ABSENT, HOLD', async () => {
  const orch = await startOrchestrator()
  await seedEntries(orch, [
    ...Array.from({ length: 30 }, (_, i) => note(`wombat ${i} «ünïcödé» "quoted"`, `line one\nwombat burrow ${i}\n\ttab\u2028sep`)),
    note('wombat giant', `${'long wombat text '.repeat(3000)}`, { summary: 'a summary', tags: ['a', 'b'], sprintNum: 4 })
  ])
  const bodies: Record<string, unknown> = {}
  const read = async (name: string, query: Record<string, string>) => {
    const response = await orch.call('GET', `/api/memory/search?${q(query)}`)
    assert.equal(response.status, 200, response.body)
    bodies[name] = JSON.parse(response.body)
    return bodies[name] as { view: { state: string; nextCursor?: string | null; deferred?: unknown[]; entries?: unknown[] } }
  }
  const first = await read('available', { v: '1', q: 'wombat' })
  assert.equal(first.view.state, 'AVAILABLE')
  assert.ok(first.view.entries!.length > 0 && first.view.deferred!.length > 0, 'a page with entries and deferrals')
  await read('next page', { v: '1', q: 'wombat', cursor: first.view.nextCursor! })
  await read('newest first', { v: '1' })
  await read('absent', { v: '1', q: 'platypus' })
  await read('hold invalid', { v: '2' })
  await read('hold cursor', { v: '1', q: 'wombat', cursor: 'memory-read-cursor-v1.garbage' })
  assert.deepEqual(
    Object.entries(bodies).map(([name, body]) => [name, (body as { view: { state: string } }).view.state]),
    [
      ['available', 'AVAILABLE'],
      ['next page', 'AVAILABLE'],
      ['newest first', 'AVAILABLE'],
      ['absent', 'ABSENT'],
      ['hold invalid', 'HOLD'],
      ['hold cursor', 'HOLD']
    ]
  )
  for (const [name, body] of Object.entries(bodies)) {
    assert.ok(Value.Check(SearchBody, body), `${name}: ${JSON.stringify([...Value.Errors(SearchBody, body)].slice(0, 3))}`)
    assert.deepEqual(Value.Clean(SearchBody, structuredClone(body)), body, `${name}: no field beyond the schema`)
  }
})
