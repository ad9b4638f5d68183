import assert from 'node:assert/strict'
import { test } from 'node:test'
import { canonicalJson } from '../../../../src/core/canonical-json.js'
import { sha256Digest } from '../../../../src/services/orchestrator/modules/memory/canonical.js'
import { BYTE_RESERVE, DEFAULT_READ_LIMITS, ENTRY_BYTE_OVERHEAD } from '../../../../src/services/orchestrator/modules/memory/contract.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'
import { localScope, note, q, seedEntries, v1 } from './helpers.js'

test(
  'budgets: entries fit the byte budget whole, ' + 'an oversize entry is deferred with a ref whose detail is the complete entry',
  async () => {
    const orch = await startOrchestrator()
    const big = `${'A large design record about caching. '.repeat(1200)}\nend`
    const ids = await seedEntries(orch, [
      note('caching small one', 'caching is simple'),
      note('caching design', big),
      ...Array.from({ length: 6 }, (_, i) => note(`caching note ${i}`, `caching detail ${i}\n`.repeat(3)))
    ])
    const view = await v1(orch, `/api/memory/search?${q({ v: '1', q: 'caching' })}`)
    assert.equal(view.state, 'AVAILABLE')
    assert.deepEqual(view.limits, DEFAULT_READ_LIMITS)
    assert.equal(view.deferred.length, 1)
    const deferred = view.deferred[0]
    assert.equal(deferred.candidate.id, ids[1])
    assert.equal(deferred.reasonCode, 'BYTE_LIMIT')
    assert.equal(deferred.candidate.contentByteLength, Buffer.byteLength(big))
    assert.match(deferred.detailRef, /^memory-read-detail-v1\./)
    // Every other hit is a whole entry; the entries' accounted cost stays within the budget.
    assert.deepEqual(view.entries.map((e: any) => e.entry.id).sort(), ids.filter((id) => id !== ids[1]).sort())
    const cost = view.entries.reduce((sum: number, e: any) => sum + Buffer.byteLength(canonicalJson(e.entry)) + ENTRY_BYTE_OVERHEAD, 0)
    assert.ok(cost <= DEFAULT_READ_LIMITS.maxBytes - BYTE_RESERVE)
    for (const e of view.entries) assert.equal(e.contentDigest, sha256Digest(e.entry.content))
    assert.equal(view.candidates.length, ids.length)
    assert.equal(view.nextCursor, null)

    const detail = await v1(orch, `/api/memory/detail?${q({ v: '1', ref: deferred.detailRef })}`)
    assert.equal(detail.state, 'AVAILABLE')
    assert.equal(detail.entry.content, big)
    assert.equal(detail.contentDigest, sha256Digest(big))
  }
)

test('budgets: long entries are deferred on the line budget and limit caps the entries of a page', async () => {
  const orch = await startOrchestrator()
  const long = Array.from({ length: 120 }, (_, i) => `line ${i} of the retro`).join('\n')
  await seedEntries(orch, [note('retro one', long), note('retro two', long), note('retro three', 'short retro')])
  const view = await v1(orch, `/api/memory/search?${q({ v: '1', q: 'retro' })}`)
  // 198 usable lines: one 127-line entry fits, the second does not; the short one still does.
  assert.equal(view.entries.length, 2)
  assert.deepEqual(
    view.deferred.map((d: any) => d.reasonCode),
    ['LINE_LIMIT']
  )

  // Over the entry limit, the other hits are deferred as ENTRY_LIMIT (even the one also over the line budget).
  const limited = await v1(orch, `/api/memory/search?${q({ v: '1', q: 'retro', limit: '1' })}`)
  assert.equal(limited.limits.maxEntries, 1)
  assert.equal(limited.entries.length, 1)
  assert.deepEqual(
    limited.deferred.map((d: any) => d.reasonCode),
    ['ENTRY_LIMIT', 'ENTRY_LIMIT']
  )
  assert.equal(limited.nextCursor, null)
})

test(
  'hits over the entry limit are deferred as ENTRY_LIMIT on the same page: ' +
    'whole, in rank order, each with a ref to its complete entry',
  async () => {
    const orch = await startOrchestrator()
    const ids = await seedEntries(
      orch,
      Array.from({ length: 5 }, (_, i) => note(`lexer note ${i}`, `lexer ${'tokens '.repeat(i + 1)}\nsecond line`))
    )
    const view = await v1(orch, `/api/memory/search?${q({ v: '1', q: 'lexer', limit: '2' })}`)
    assert.equal(view.state, 'AVAILABLE')
    assert.equal(view.entries.length, 2)
    assert.deepEqual(
      view.deferred.map((d: any) => [d.reasonCode, d.reasons]),
      Array.from({ length: 3 }, () => ['ENTRY_LIMIT', ['QUERY_MATCH']])
    )
    assert.deepEqual(
      view.candidates.map((c: any) => c.id),
      [...view.entries.map((e: any) => e.entry.id), ...view.deferred.map((d: any) => d.candidate.id)]
    )
    assert.deepEqual(
      [...view.candidates.map((c: any) => c.id)].sort((a, b) => a - b),
      ids
    )
    assert.equal(view.nextCursor, null)
    for (const deferred of view.deferred) {
      const detail = await v1(orch, `/api/memory/detail?${q({ v: '1', ref: deferred.detailRef })}`)
      assert.equal(detail.state, 'AVAILABLE')
      assert.equal(detail.entry.id, deferred.candidate.id)
      assert.equal(Buffer.byteLength(detail.entry.content), deferred.candidate.contentByteLength)
    }
    // A bare v=1 over more entries than the default limit of 20: 20 entries, the rest deferred.
    await seedEntries(
      orch,
      Array.from({ length: 20 }, (_, i) => note(`plain ${i}`, 'plain'))
    )
    const all = await v1(orch, '/api/memory/search?v=1')
    assert.equal(all.entries.length, 20)
    assert.deepEqual(
      all.deferred.map((d: any) => [d.reasonCode, d.reasons]),
      Array.from({ length: 5 }, () => ['ENTRY_LIMIT', ['PREFERRED_LATEST']])
    )
  }
)

test('cursor paging walks every hit exactly once, in rank order, across pages', async () => {
  const orch = await startOrchestrator()
  const ids = await seedEntries(
    orch,
    Array.from({ length: 130 }, (_, i) => note(`deploy step ${i}`, `deploy ${'the service '.repeat(i % 5)}carefully`))
  )
  await seedEntries(orch, [note('unrelated', 'nothing to see')])
  const seen: number[] = []
  const relevances: number[] = []
  let cursor: string | null = null
  let pages = 0
  do {
    const view: any = await v1(orch, `/api/memory/search?${q({ v: '1', q: 'deploy', limit: '10', ...(cursor ? { cursor } : {}) })}`)
    assert.equal(view.state, 'AVAILABLE')
    assert.ok(view.entries.length <= 10)
    // A page is its candidates: the entries, then hits deferred as ENTRY_LIMIT until the budget ends the page.
    assert.ok(view.deferred.every((d: any) => d.reasonCode === 'ENTRY_LIMIT'))
    if (view.nextCursor) assert.equal(view.entries.length, 10)
    seen.push(...view.candidates.map((c: any) => c.id))
    relevances.push(...view.candidates.map((c: any) => c.relevance))
    cursor = view.nextCursor
    pages++
  } while (cursor)
  assert.ok(pages >= 3, `${pages} pages`)
  assert.deepEqual(
    [...seen].sort((a, b) => a - b),
    ids
  )
  assert.equal(new Set(seen).size, seen.length)
  for (let i = 1; i < relevances.length; i++) assert.ok(relevances[i - 1]! >= relevances[i]!, `rank order at ${i}`)
})

test('tampered, foreign-query and stale cursors, and tampered or changed refs, are typed HOLDs', async () => {
  const orch = await startOrchestrator()
  const scope = await localScope(orch)
  // More hits than a page's candidates (128), so the first page has a next page whatever its deferrals cost.
  await seedEntries(
    orch,
    Array.from({ length: 150 }, (_, i) => note(`queue ${i}`, 'queue semantics'))
  )
  const first = await v1(orch, `/api/memory/search?${q({ v: '1', q: 'queue', limit: '2' })}`)
  const cursor: string = first.nextCursor
  assert.match(cursor, /^memory-read-cursor-v1\./)

  const tampered = cursor.slice(0, -3) + (cursor.endsWith('A') ? 'BBB' : 'AAA')
  for (const [what, url] of [
    ['tampered', `/api/memory/search?${q({ v: '1', q: 'queue', limit: '2', cursor: tampered })}`],
    ['other query', `/api/memory/search?${q({ v: '1', q: 'semantics', limit: '2', cursor })}`],
    ['other limits', `/api/memory/search?${q({ v: '1', q: 'queue', limit: '3', cursor })}`],
    ['garbage', `/api/memory/search?${q({ v: '1', q: 'queue', limit: '2', cursor: 'memory-read-cursor-v1.e30' })}`]
  ] as const) {
    const view = await v1(orch, url)
    assert.deepEqual([view.state, view.reasonCode], ['HOLD', 'CURSOR_INVALID'], what)
  }
  // The payload re-signed by anyone without the project's key does not verify either.
  const decoded = JSON.parse(Buffer.from(cursor.slice('memory-read-cursor-v1.'.length), 'base64url').toString())
  decoded.payload.afterOrdinal = 0
  const forged = `memory-read-cursor-v1.${Buffer.from(JSON.stringify(decoded)).toString('base64url')}`
  assert.equal((await v1(orch, `/api/memory/search?${q({ v: '1', q: 'queue', limit: '2', cursor: forged })}`)).reasonCode, 'CURSOR_INVALID')

  const second = await v1(orch, `/api/memory/search?${q({ v: '1', q: 'queue', limit: '2', cursor })}`)
  assert.equal(second.state, 'AVAILABLE')
  await orch.repositories.memory.record(scope, note('queue 6', 'queue again'))
  const stale = await v1(orch, `/api/memory/search?${q({ v: '1', q: 'queue', limit: '2', cursor })}`)
  assert.deepEqual([stale.state, stale.reasonCode, stale.scope.kind], ['HOLD', 'CURSOR_STALE', 'local-project'])

  // Refs: a deferred entry's ref answers the entry until the entry changes.
  const huge = await orch.repositories.memory.upsert(scope, 'huge', note('queue manual', 'queue '.repeat(8000)))
  const withRef = await v1(orch, `/api/memory/search?${q({ v: '1', q: 'manual' })}`)
  const detailRef: string = withRef.deferred[0].detailRef
  assert.equal((await v1(orch, `/api/memory/detail?${q({ v: '1', ref: detailRef })}`)).entry.id, huge.id)
  const badRef = detailRef.slice(0, -2) + (detailRef.endsWith('x') ? 'yy' : 'xx')
  assert.equal((await v1(orch, `/api/memory/detail?${q({ v: '1', ref: badRef })}`)).reasonCode, 'DETAIL_REFERENCE_INVALID')
  assert.equal((await v1(orch, `/api/memory/detail?${q({ v: '1', ref: cursor })}`)).reasonCode, 'DETAIL_REFERENCE_INVALID')
  assert.equal((await v1(orch, '/api/memory/detail?v=1')).reasonCode, 'INVALID_REQUEST')
  await orch.repositories.memory.upsert(scope, 'huge', note('queue manual', 'queue '.repeat(8001)))
  const changed = await v1(orch, `/api/memory/detail?${q({ v: '1', ref: detailRef })}`)
  assert.deepEqual([changed.state, changed.reasonCode, changed.requiredIds], ['HOLD', 'DETAIL_CHANGED', [huge.id]])
})

test('invalid parameters are HOLD INVALID_REQUEST; a bare v=1 matches every entry; filters and ranking', async () => {
  const orch = await startOrchestrator()
  const ids = await seedEntries(orch, [
    note('redis outage', 'the cache fell over', { type: 'error', status: 'resolved', sprintNum: 1 }),
    note('postgres tuning', 'redis was not involved; vacuum settings', { type: 'decision', sprintNum: 2 }),
    note('cache redis postgres', 'both stores', { type: 'decision', sprintNum: 3 }),
    note('unrelated', 'nothing', { type: 'memory', sprintNum: 3 })
  ])
  for (const params of [
    { limit: '0' },
    { limit: 'x' },
    { mode: 'xor' },
    { sprint_min: '-1' },
    { type: 'a b' },
    { q: Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ') },
    { cursor: '' }
  ] as Array<Record<string, string>>) {
    const view = await v1(orch, `/api/memory/search?${q({ v: '1', ...params })}`)
    assert.deepEqual([view.state, view.reasonCode, view.requiredIds], ['HOLD', 'INVALID_REQUEST', []], JSON.stringify(params))
  }
  // A repeated parameter has no one value, and only v=1 is the versioned read: typed HOLDs (200), not 400s.
  for (const query of ['v=1&limit=1&limit=2', 'v=1&q=redis&q=cache', 'v=1&v=1', 'v=2', 'v=&q=redis', 'v=1&type=error&type=decision']) {
    const view = await v1(orch, `/api/memory/search?${query}`)
    assert.deepEqual([view.state, view.reasonCode, view.requiredIds], ['HOLD', 'INVALID_REQUEST', []], query)
  }
  for (const query of ['v=1&ref=a&ref=b', 'v=1&v=1&ref=a'])
    assert.equal((await v1(orch, `/api/memory/detail?${query}`)).reasonCode, 'INVALID_REQUEST', query)
  const legacyRepeated = await orch.call('GET', '/api/memory/search?q=redis&q=cache')
  assert.deepEqual([legacyRepeated.status, legacyRepeated.json.error], [409, 'INVALID_REQUEST'])
  const all = await v1(orch, '/api/memory/search?v=1')
  assert.deepEqual(
    all.entries.map((e: any) => e.entry.id),
    [...ids].reverse()
  )
  const idsOf = async (params: Record<string, string>) =>
    (await v1(orch, `/api/memory/search?${q({ v: '1', ...params })}`)).entries.map((e: any) => e.entry.id)
  // A title match outranks a content match.
  const redis = await idsOf({ q: 'redis' })
  assert.equal(redis.length, 3)
  assert.equal(redis[redis.length - 1], ids[1], 'content-only match ranks last')
  assert.deepEqual(
    await idsOf({ q: 'redis postgres', mode: 'and' }),
    redis.filter((id: number) => id !== ids[0])
  )
  assert.deepEqual((await idsOf({ q: 'redis postgres' })).sort(), [ids[0], ids[1], ids[2]].sort())
  assert.deepEqual(
    await idsOf({ q: 'redis', type: 'decision,error', status: 'active' }),
    redis.filter((id: number) => id !== ids[0])
  )
  assert.deepEqual(await idsOf({ q: 'redis', sprint_min: '3' }), [ids[2]])
  const absent = await v1(orch, `/api/memory/search?${q({ v: '1', q: 'kubernetes' })}`)
  assert.deepEqual([absent.state, absent.entries, absent.nextCursor], ['ABSENT', [], null])
  assert.match(absent.selectionRevisionDigest, /^sha256:[0-9a-f]{64}$/)
})
