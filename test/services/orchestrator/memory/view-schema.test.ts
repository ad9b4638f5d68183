import assert from 'node:assert/strict'
import { test } from 'node:test'
import Value from 'typebox/value'
import { joinParts } from '../../../../src/core/http/body-pool.js'
import { SearchBody } from '../../../../src/services/orchestrator/modules/memory/memory.schemas.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'
import { createMemoryReadService } from '../../../../src/services/orchestrator/modules/memory/memory-read.service.js'
import { createTokenSealer, loadOrCreateMemoryKey } from '../../../../src/services/orchestrator/modules/memory/opaque-token.js'
import { localScope, note, q, seedEntries } from './helpers.js'

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

// The route sends the text the read service puts together from each item's JSON while it fills the page; it must
// be exactly what JSON.stringify gives for the view other callers (MCP, planner) receive as an object.
test('the body of every view is the UTF-8 of JSON.stringify({schemaVersion, view}), item for item, escapes included', async () => {
  const orch = await startOrchestrator()
  const scope = await localScope(orch)
  await seedEntries(orch, [
    ...Array.from({ length: 40 }, (_, i) =>
      note(`otter ${i} «ünïcödé» "q" \\ ${'😀'.repeat(i % 3)}`, `line\notter ${i}\u0001\t\u2028\ud800 end`, {
        summary: i % 2 ? null : `sum "${i}"`,
        tags: [`t${i}`, 'x"y'],
        metadata: { nested: { n: i, s: 'a\nb' } }
      })
    ),
    note('otter giant', 'otter '.repeat(8000))
  ])
  const reads = createMemoryReadService({
    repository: orch.repositories.memory,
    sealer: createTokenSealer(loadOrCreateMemoryKey(orch.config.dataDir, scope.projectId)),
    termIndex: {}
  })
  const principal = { kind: 'local-project' as const, projectId: scope.projectId, tenantId: 'local' }
  const states = new Set<string>()
  const params: Array<Record<string, string>> = [
    { v: '1', q: 'otter' },
    { v: '1', q: 'otter', limit: '3' },
    { v: '1', q: 'otter giant', mode: 'and' },
    { v: '1' },
    { v: '1', q: 'nothing' },
    { v: '1', limit: 'x' }
  ]
  for (const query of params) {
    let cursor: string | null | undefined
    for (let page = 0; page < 4; page++) {
      const view = await reads.search(principal, 'api', cursor ? { ...query, cursor } : query)
      states.add(view.state)
      const json = JSON.stringify({ schemaVersion: 1, view })
      const first = reads.bodyOf(view)
      assert.equal(Buffer.isBuffer(first) ? first.toString() : joinParts(first).toString(), json, `${JSON.stringify(query)} page ${page}`)
      // Served again (a kept page): its bytes, the same JSON.
      assert.equal(reads.bodyOf(view).toString(), json, `${JSON.stringify(query)} page ${page}, again`)
      assert.equal(reads.bodyText(view), json)
      cursor = 'nextCursor' in view ? view.nextCursor : null
      if (!cursor) break
    }
  }
  assert.deepEqual([...states].sort(), ['ABSENT', 'AVAILABLE', 'HOLD'])
  const response = await orch.call('GET', `/api/memory/search?${q({ v: '1', q: 'otter' })}`)
  assert.equal(response.status, 200)
  assert.equal(JSON.stringify(JSON.parse(response.body)), response.body, 'the route sends canonical JSON text')
})
