import assert from 'node:assert/strict'
import { test } from 'node:test'
import { flowServer, propose } from './helpers.js'

test('GET /api/run-flow/list pages newest first with limit and nextCursor; a bad cursor or limit is 400', async () => {
  const orch = await flowServer()
  const proposed: string[] = []
  for (let i = 0; i < 5; i++) proposed.push((await propose(orch, `Write note ${i} into notes.txt`)).flowId)

  const all = await orch.call('GET', '/api/run-flow/list')
  assert.equal(all.status, 200, all.body)
  assert.equal(all.json.nextCursor, null, 'five flows fit the default page of 50')
  assert.deepEqual(
    all.json.flows.map((f: { flowId: string }) => f.flowId),
    [...proposed].reverse()
  )
  assert.deepEqual(Object.keys(all.json.flows[0]).sort(), ['createdAt', 'flowId', 'intentSummary', 'revision', 'state', 'updatedAt'])

  const seen: string[] = []
  const sizes: number[] = []
  let cursor: string | null = null
  do {
    const page = await orch.call('GET', `/api/run-flow/list?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    assert.equal(page.status, 200, page.body)
    sizes.push(page.json.flows.length)
    seen.push(...page.json.flows.map((f: { flowId: string }) => f.flowId))
    cursor = page.json.nextCursor
  } while (cursor !== null)
  assert.deepEqual(sizes, [2, 2, 1])
  assert.deepEqual(seen, [...proposed].reverse(), 'every flow once, in order, across pages')

  const bad = await orch.call('GET', '/api/run-flow/list?cursor=not-a-cursor')
  assert.equal(bad.status, 400)
  assert.match(bad.json.error, /nextCursor/)
  assert.equal((await orch.call('GET', '/api/run-flow/list?limit=0')).status, 400)
  assert.equal((await orch.call('GET', '/api/run-flow/list?limit=201')).status, 400)
  assert.equal((await orch.call('GET', '/api/run-flow/list?limit=200')).status, 200)
})
