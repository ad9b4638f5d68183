import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { snapshotTables } from '../../../helpers/db.js'
import { startOrchestrator, type OrchestratorHarness } from '../../../helpers/orchestrator.js'
import type { OrchestratorDb } from '../../../../src/services/orchestrator/state/db.js'
import { createOrchestratorRepositories } from '../../../../src/services/orchestrator/state/repositories.js'

const cursorOf = (payload: string) => `m1.${Buffer.from(payload).toString('base64url')}`

/** Missions inserted through the repositories at chosen instants (several share one, so ids break ties). */
async function seed(orch: OrchestratorHarness) {
  const projectId = await orch.repositories.projects.ensure(orch.project.root)
  let now = Date.parse('2026-01-01T00:00:00.000Z')
  const repos = createOrchestratorRepositories(orch.database.db as OrchestratorDb, () => new Date(now))
  const insert = async (id: string, tenantId = 'local', at = now) => {
    now = at
    await repos.missions.create({ id, projectId, tenantId, title: id, source: 'run', kind: 'sprint' })
  }
  return {
    insert,
    later: () => {
      now += 1000
      return now
    }
  }
}

async function page(orch: OrchestratorHarness, query: string) {
  const answer = await orch.call('GET', `/api/missions${query}`)
  assert.equal(answer.status, 200, `${query}: ${answer.body}`)
  return answer.json as { missions: Array<{ id: string }>; nextCursor: string | null }
}

test(
  'pages are newest first, without duplicates or gaps while missions are added between reads; ' + "another tenant's never appear",
  async () => {
    const orch = await startOrchestrator()
    const { insert, later } = await seed(orch)
    // 55 of ours, three to an instant; another tenant's interleaved.
    for (let i = 0; i < 55; i++) {
      await insert(
        `mis-p${String(i).padStart(2, '0')}-${'zyx'[i % 3]}${i}`,
        'local',
        Date.parse('2026-01-01T00:00:00.000Z') + Math.floor(i / 3) * 1000
      )
      if (i % 5 === 0) await insert(`mis-foreign-${i}`, 'acme')
    }
    const whole = await page(orch, '?limit=200')
    assert.equal(whole.missions.length, 55)
    assert.equal(whole.nextCursor, null)
    assert.ok(whole.missions.every((m) => !m.id.startsWith('mis-foreign')))
    const expected = whole.missions.map((m) => m.id)

    const first = await page(orch, '')
    assert.equal(first.missions.length, 50, 'the default page size is 50')
    assert.ok(first.nextCursor)

    const seen: string[] = []
    const added: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const current = await page(orch, `?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      assert.ok(current.missions.length <= 7)
      seen.push(...current.missions.map((m) => m.id))
      cursor = current.nextCursor
      // Added while the client pages: newer than every cursor, so on no later page.
      for (const tenant of ['local', 'acme']) {
        const id = `mis-new${pages}-${tenant}`
        await insert(id, tenant, later())
        if (tenant === 'local') added.push(id)
      }
      pages++
    } while (cursor !== null)
    assert.equal(pages, 8)
    assert.deepEqual(seen, expected)

    const fresh = await page(orch, '?limit=200')
    assert.deepEqual(
      fresh.missions.map((m) => m.id),
      [...added.reverse(), ...expected]
    )
    // Exactly a page's worth left: the last page says so at once.
    const exact = await page(orch, `?limit=${fresh.missions.length}`)
    assert.equal(exact.nextCursor, null)
    const tail = await page(
      orch,
      `?limit=1&cursor=${encodeURIComponent((await page(orch, `?limit=${fresh.missions.length - 1}`)).nextCursor!)}`
    )
    assert.deepEqual([tail.missions.map((m) => m.id), tail.nextCursor], [[expected.at(-1)], null])
  }
)

test('a bad limit or cursor is a 400 {error} that says what is wrong, and nothing changes', async () => {
  const orch = await startOrchestrator()
  const { insert } = await seed(orch)
  await insert('mis-a')
  const before = await snapshotTables(orch.database, 'orch_')
  for (const limit of ['0', '-1', '201', 'abc', '1.5', '', '1e3']) {
    const answer = await orch.call('GET', `/api/missions?limit=${limit}`)
    assert.equal(answer.status, 400, `limit=${limit}: ${answer.body}`)
    assert.equal(typeof answer.json.error, 'string')
    assert.match(answer.json.error, /limit/)
  }
  const bad = [
    'x',
    'm1.',
    'm1.***',
    cursorOf('not json'),
    cursorOf('{"a":1}'),
    cursorOf('["2026-01-01T00:00:00.000Z"]'),
    cursorOf('["yesterday","mis-a"]'),
    cursorOf('["2026-13-45T00:00:00.000Z","mis-a"]'),
    cursorOf('["2026-01-01T00:00:00.000Z","../etc"]'),
    cursorOf('[1,2]')
  ]
  for (const cursor of bad) {
    const answer = await orch.call('GET', `/api/missions?cursor=${encodeURIComponent(cursor)}`)
    assert.equal(answer.status, 400, `cursor=${cursor}: ${answer.body}`)
    assert.match(answer.json.error, /^invalid cursor: .+; pass the nextCursor of a previous GET \/api\/missions page unchanged/)
  }
  for (const cursor of ['', 'a'.repeat(600)]) {
    const answer = await orch.call('GET', `/api/missions?cursor=${cursor}`)
    assert.equal(answer.status, 400, answer.body)
    assert.match(answer.json.error, /cursor/)
  }
  // A well-formed cursor past every mission is simply an empty last page.
  assert.deepEqual(await page(orch, `?cursor=${cursorOf('["2000-01-01T00:00:00.000Z","mis-a"]')}`), { missions: [], nextCursor: null })
  assert.equal(await snapshotTables(orch.database, 'orch_'), before)
})

test('fuzzed limit and cursor values never answer 5xx and never write', async () => {
  const orch = await startOrchestrator()
  const { insert } = await seed(orch)
  for (let i = 0; i < 5; i++) await insert(`mis-f${i}`)
  const valid = (await page(orch, '?limit=2')).nextCursor!
  const before = await snapshotTables(orch.database, 'orch_')
  const value = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.integer({ min: -1000, max: 1000 }).map(String),
    fc.double().map(String),
    fc.base64String({ maxLength: 80 }).map((s) => `m1.${s}`),
    fc
      .tuple(fc.nat({ max: valid.length - 1 }), fc.string({ minLength: 1, maxLength: 1 }))
      .map(([i, c]) => valid.slice(0, i) + c + valid.slice(i + 1)),
    fc.json().map(cursorOf),
    fc.string({ minLength: 500, maxLength: 700 })
  )
  await fc.assert(
    fc.asyncProperty(fc.option(value), fc.option(value), async (limit, cursor) => {
      const params = new URLSearchParams()
      if (limit !== null) params.set('limit', limit)
      if (cursor !== null) params.set('cursor', cursor)
      const answer = await orch.call('GET', `/api/missions?${params.toString()}`)
      assert.ok(answer.status === 200 || answer.status === 400, `${params.toString()} → ${answer.status} ${answer.body}`)
      if (answer.status === 400) assert.equal(typeof answer.json.error, 'string')
      else assert.ok(Array.isArray(answer.json.missions) && (answer.json.nextCursor === null || typeof answer.json.nextCursor === 'string'))
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 150), seed: 20261122 }
  )
  assert.equal(await snapshotTables(orch.database, 'orch_'), before)
})
