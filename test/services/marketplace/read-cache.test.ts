import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import { gunzipSync } from 'node:zlib'
import { silentLogger } from '../../../src/core/logger.js'
import type { App } from '../../../src/core/http/server.js'
import { buildMarketplaceApp } from '../../../src/services/marketplace/app.js'
import type { MarketplaceDb } from '../../../src/services/marketplace/db.js'
import { createAuthenticator } from '../../../src/services/marketplace/http/api-key.js'
import { createKeysRepository } from '../../../src/services/marketplace/modules/keys/keys.repository.js'
import { createReadCache, gzipOf, type CachedRendering } from '../../../src/services/marketplace/http/read-cache.js'
import { orderBody, product, startMarketplace, type MarketplaceHarness } from '../../helpers/marketplace.js'

/**
 * GET /v2/orders/new and GET /v2/products/data are served from a cache keyed by per-customer
 * version counters in the database. These tests read (filling the cache), write, and read again:
 * the write must be visible at once — through the same app, through a second app on the same
 * database (another process), and byte for byte equal to an app without the cache.
 */
interface Setup {
  m: MarketplaceHarness
  mk: string
  ck: string
  /**
   * A second app instance on the same database, with its own cache (as another process would
   * be), and an authenticator that does not supply the version counters: its list reads query
   * them separately (the fallback path).
   */
  other: App
  /** An app on the same database with the cache disabled: the reference rendering. */
  plain: App
}

async function setup(): Promise<Setup> {
  const m = await startMarketplace()
  const db = m.database.db as MarketplaceDb
  const build = (readCacheBytes?: number, withoutCounters = false) =>
    buildMarketplaceApp({
      db,
      logger: silentLogger(),
      clock: () => new Date(),
      pageSize: 100,
      ...(readCacheBytes !== undefined ? { readCacheBytes } : {}),
      ...(withoutCounters ? { authenticate: withoutCountersAuthenticator(db) } : {})
    })
  const other = await build(undefined, true)
  const plain = await build(0)
  await other.ready()
  await plain.ready()
  after(async () => {
    await other.close()
    await plain.close()
  })
  const mk = await m.key('ACME', 'merchant')
  const ck = await m.key('ACME', 'channel', 'bol')
  return { m, mk, ck, other, plain }
}

function withoutCountersAuthenticator(db: MarketplaceDb) {
  const authenticate = createAuthenticator(createKeysRepository(db))
  return async (request: Parameters<typeof authenticate>[0]) => {
    const principal = await authenticate(request)
    assert.ok(principal.counters, 'the default authenticator reads the counters with the key')
    delete principal.counters
    return principal
  }
}

async function get(app: App, key: string, path: string) {
  const response = await app.inject({ method: 'GET', url: `/v2${path}`, headers: { 'x-ce-key': key } })
  assert.equal(response.statusCode, 200, response.body)
  assert.equal(response.headers['content-type'], 'application/json; charset=utf-8')
  return response.body
}

/** Reads `path` through every app (twice through the cached ones) and checks they agree; returns the JSON. */
async function read(s: Setup, key: string, path: string): Promise<any> {
  const reference = await get(s.plain, key, path)
  for (const app of [s.m.app, s.m.app, s.other, s.other])
    assert.equal(await get(app, key, path), reference, `${path} differs from the uncached rendering`)
  return JSON.parse(reference)
}

async function versions(s: Setup) {
  const row = await s.m.database.db
    .selectFrom('mp_customers')
    .select(['orders_version', 'products_version', 'change_seq'])
    .where('name', '=', 'ACME')
    .executeTakeFirstOrThrow()
  return { orders: Number(row.orders_version), products: Number(row.products_version), seq: Number(row.change_seq) }
}

test('orders/new: creating and acknowledging an order are visible on the very next read, in every app instance', async () => {
  const s = await setup()
  const { m, mk, ck } = s
  assert.equal((await m.call(mk, 'POST', '/products', [product('MUG'), product('TEE')])).status, 200)
  assert.equal((await read(s, mk, '/orders/new')).Count, 0)

  // A write through one instance, the next read through the other (its cache holds the old page).
  const created = await s.other.inject({
    method: 'POST',
    url: '/v2/orders',
    headers: { 'x-ce-key': ck, 'content-type': 'application/json' },
    payload: orderBody('BOL-1', [['MUG', 2, 7.5]])
  })
  assert.equal(created.statusCode, 201, created.body)
  const afterCreate = await read(s, mk, '/orders/new')
  assert.deepEqual(
    afterCreate.Content.map((o: any) => o.ChannelReference),
    ['BOL-1']
  )
  assert.equal(afterCreate.TotalCount, 1)

  assert.equal((await m.call(ck, 'POST', '/orders', orderBody('BOL-2', [['TEE', 1, 19.99]]))).status, 201)
  assert.deepEqual(
    (await read(s, mk, '/orders/new')).Content.map((o: any) => o.ChannelReference),
    ['BOL-1', 'BOL-2']
  )

  const order = afterCreate.Content[0]
  const ack = await m.call(mk, 'POST', '/orders/acknowledge', {
    MerchantOrderReference: 'SO-1',
    OrderId: order.Id,
    Lines: [{ OrderLineId: order.Lines[0].Id, MerchantOrderLineReference: 'SO-1-1' }]
  })
  assert.equal(ack.status, 201, ack.body)
  const afterAck = await read(s, mk, '/orders/new')
  assert.deepEqual(
    afterAck.Content.map((o: any) => o.ChannelReference),
    ['BOL-2']
  )
  assert.equal(afterAck.TotalCount, 1)

  // Pages are cached separately and invalidated alike.
  assert.equal((await read(s, mk, '/orders/new?page=2')).Count, 0)
  assert.equal((await m.call(ck, 'POST', '/orders', orderBody('BOL-3', [['TEE', 1, 19.99]]))).status, 201)
  assert.equal((await read(s, mk, '/orders/new')).TotalCount, 2)
  assert.equal((await read(s, mk, '/orders/new?page=2')).TotalCount, 2)
})

test('every order write bumps the orders version in its transaction; a rejected write bumps nothing', async () => {
  const s = await setup()
  const { m, mk, ck } = s
  assert.equal((await m.call(mk, 'POST', '/products', [product('MUG')])).status, 200)
  const created = (await m.call(ck, 'POST', '/orders', orderBody('BOL-1', [['MUG', 10, 7.5]]))).json.Content
  await m.call(mk, 'POST', '/orders/acknowledge', {
    MerchantOrderReference: 'SO-1',
    OrderId: created.Id,
    Lines: [{ OrderLineId: created.Lines[0].Id, MerchantOrderLineReference: 'SO-1-1' }]
  })
  const writes: [string, string, string, unknown][] = [
    [
      'shipment',
      mk,
      '/shipments',
      { MerchantShipmentReference: 'SH-1', MerchantOrderReference: 'SO-1', Lines: [{ MerchantOrderLineReference: 'SO-1-1', Quantity: 2 }] }
    ],
    [
      'backorder',
      mk,
      '/backorders',
      { MerchantBackorderReference: 'BO-1', MerchantOrderReference: 'SO-1', Lines: [{ MerchantOrderLineReference: 'SO-1-1', Quantity: 1 }] }
    ],
    [
      'cancellation',
      mk,
      '/cancellations',
      { MerchantReference: 'CA-1', MerchantOrderReference: 'SO-1', Lines: [{ MerchantOrderLineReference: 'SO-1-1', Quantity: 1 }] }
    ],
    [
      'return',
      ck,
      '/returns',
      { ChannelReturnReference: 'RE-1', ChannelOrderReference: 'BOL-1', Lines: [{ ChannelOrderLineReference: 'BOL-1-L1', Quantity: 1 }] }
    ]
  ]
  for (const [kind, key, path, body] of writes) {
    const before = await versions(s)
    const response = await m.call(key, 'POST', path, body)
    assert.equal(response.status, 201, `${kind}: ${response.body}`)
    const after = await versions(s)
    assert.equal(after.orders, before.orders + 1, `${kind} bumps the orders version`)
    assert.equal(after.products, before.products, `${kind} leaves the products version`)
    // Rejected (duplicate reference, rolled back): no bump.
    assert.equal((await m.call(key, 'POST', path, body)).status, 409)
    assert.deepEqual(await versions(s), after, `a rejected ${kind} bumps nothing`)
  }
  const before = await versions(s)
  assert.equal((await m.call(ck, 'POST', '/orders', orderBody('BOL-1', [['MUG', 1, 7.5]]))).status, 409)
  assert.deepEqual(await versions(s), before, 'a rejected order creation bumps nothing')
})

test('products/data: upsert, price change, deactivation and every acknowledgement are visible on the next read', async () => {
  const s = await setup()
  const { m, mk, ck } = s
  const refs = (list: any[]) => list.map((p) => p.MerchantProductReference)
  assert.equal((await m.call(mk, 'POST', '/products', [product('A'), product('B')])).status, 200)
  let data = await read(s, ck, '/products/data')
  assert.deepEqual(refs(data.Content.ToBeCreated), ['A', 'B'])

  // Upsert of a new product, then a price-only change of a listed one (Price is in the view).
  assert.equal((await m.call(mk, 'POST', '/products', [product('C')])).status, 200)
  assert.deepEqual(refs((await read(s, ck, '/products/data')).Content.ToBeCreated), ['A', 'B', 'C'])
  const priced = await s.other.inject({
    method: 'POST',
    url: '/v2/products',
    headers: { 'x-ce-key': mk, 'content-type': 'application/json' },
    payload: [product('A', { Price: 25 })]
  })
  assert.equal(priced.statusCode, 200, priced.body)
  assert.equal((await read(s, ck, '/products/data')).Content.ToBeCreated[0].Price, 25)

  // Acknowledged creation removes them from ToBeCreated.
  const ack = await m.call(ck, 'POST', '/products/data', {
    Created: [
      { MerchantReference: 'A', ChannelReference: 'c-a' },
      { MerchantReference: 'B', ChannelReference: 'c-b' }
    ]
  })
  assert.equal(ack.status, 201, ack.body)
  data = await read(s, ck, '/products/data')
  assert.deepEqual(refs(data.Content.ToBeCreated), ['C'])

  // A data change → ToBeUpdated; its acknowledgement clears it.
  assert.equal((await m.call(mk, 'POST', '/products', [product('A', { Price: 25, Description: 'new' })])).status, 200)
  data = await read(s, ck, '/products/data')
  assert.deepEqual(refs(data.Content.ToBeUpdated), ['A'])
  assert.equal((await m.call(ck, 'POST', '/products/data', { Updated: ['c-a'] })).status, 201)
  assert.deepEqual((await read(s, ck, '/products/data')).Content.ToBeUpdated, [])

  // Deactivation → ToBeRemoved (and out of ToBeCreated); the removal acknowledgement clears it.
  assert.equal((await m.call(mk, 'DELETE', '/products/B')).status, 200)
  assert.equal((await m.call(mk, 'DELETE', '/products/C')).status, 200)
  data = await read(s, ck, '/products/data')
  assert.deepEqual(data.Content.ToBeRemoved, ['c-b'])
  assert.deepEqual(data.Content.ToBeCreated, [])
  assert.equal((await m.call(ck, 'POST', '/products/data', { Removed: ['c-b'] })).status, 201)
  data = await read(s, ck, '/products/data')
  assert.deepEqual([data.ToBeCreatedTotalCount, data.ToBeUpdatedTotalCount, data.ToBeRemovedTotalCount], [0, 0, 0])

  // Offer acknowledgements bump the version too (cheap, and keeps the rule simple: every write).
  assert.equal((await m.call(mk, 'POST', '/products', [product('A', { Price: 26, Description: 'new' })])).status, 200)
  const before = await versions(s)
  assert.equal((await m.call(ck, 'POST', '/products/offers', ['c-a'])).status, 201)
  assert.equal((await versions(s)).products, before.products + 1)
  assert.equal((await versions(s)).orders, before.orders)
})

test('products/data: each channel and page has its own entry, and a cached GET still records the seen mark', async () => {
  const s = await setup()
  const { m, mk, ck } = s
  const other = await m.key('ACME', 'channel', 'amazon')
  assert.equal(
    (
      await m.call(
        mk,
        'POST',
        '/products',
        Array.from({ length: 5 }, (_, i) => product(`P${i}`))
      )
    ).status,
    200
  )
  assert.equal((await read(s, ck, '/products/data?pageSize=2')).Content.ToBeCreated.length, 2)
  assert.equal((await read(s, ck, '/products/data?pageSize=2&page=3')).Content.ToBeCreated.length, 1)
  assert.equal((await read(s, other, '/products/data')).ToBeCreatedTotalCount, 5)
  // One channel's acknowledgement changes only its own lists.
  assert.equal((await m.call(ck, 'POST', '/products/data', { Created: [{ MerchantReference: 'P0', ChannelReference: 'x0' }] })).status, 201)
  assert.equal((await read(s, ck, '/products/data')).ToBeCreatedTotalCount, 4)
  assert.equal((await read(s, other, '/products/data')).ToBeCreatedTotalCount, 5)

  const { seq } = await versions(s)
  const seen = async (name: string) =>
    Number(
      (await m.database.db.selectFrom('mp_channels').select('data_seen_seq').where('name', '=', name).executeTakeFirstOrThrow())
        .data_seen_seq
    )
  assert.equal(await seen('bol'), seq)
  assert.equal(await seen('amazon'), seq)
  assert.equal((await m.call(mk, 'POST', '/products', [product('P9')])).status, 200)
  await get(s.m.app, other, '/products/data')
  assert.equal(await seen('amazon'), seq + 1, 'the GET after a change records the new mark')
  await get(s.m.app, other, '/products/data') // a cache hit
  assert.equal(await seen('amazon'), seq + 1)
  assert.equal(await seen('bol'), seq, 'only the channel that read')
})

test('read cache: gzip encodings made once per rendering count towards the budget and leave with it; 0 bytes disables it', async () => {
  const cache = createReadCache(100_000)
  const body = Buffer.from(JSON.stringify({ rows: Array.from({ length: 500 }, (_, i) => ({ i, name: `row ${i}` })) }))
  const unexpected = async (): Promise<CachedRendering> => assert.fail('rendered again')
  const rendering = await cache.get('a', 1, async () => ({ body, gzipBytes: 0 }))
  const [first, second] = await Promise.all([gzipOf(cache, 'a', rendering), gzipOf(cache, 'a', rendering)])
  assert.equal(first, second, 'one compression for concurrent requests')
  assert.deepEqual(gunzipSync(first), body)
  assert.equal(cache.stats().bytes, body.length + first.length)
  assert.equal((await cache.get('a', 1, unexpected)).gzip !== undefined, true)
  // A newer version drops the entry with its encoding (before it renders the new one).
  let renderNewer: () => void = () => {}
  const newer = cache.get('a', 2, () => new Promise<CachedRendering>((resolve) => (renderNewer = () => resolve({ body, gzipBytes: 0 }))))
  assert.deepEqual(cache.stats(), { entries: 0, bytes: 0 })
  renderNewer()
  await newer
  assert.deepEqual(cache.stats(), { entries: 1, bytes: body.length })

  const off = createReadCache(0)
  await off.get('a', 1, async () => ({ body, gzipBytes: 0 }))
  assert.deepEqual(off.stats(), { entries: 0, bytes: 0 })
})

test('products/data and orders/new: gzip when the client accepts it, the same JSON either way', async () => {
  const s = await setup()
  const products = Array.from({ length: 30 }, (_, i) => product(`GZ-${i}`))
  assert.equal((await s.m.call(s.mk, 'POST', '/products', products)).status, 200)
  for (let i = 0; i < 5; i++)
    assert.equal((await s.m.call(s.ck, 'POST', '/orders', orderBody(`GZ-O-${i}`, [['GZ-1', 1, 19.99]]))).status, 201)
  for (const [key, path] of [
    [s.ck, '/products/data'],
    [s.mk, '/orders/new']
  ] as const) {
    const identity = await s.m.app.inject({ method: 'GET', url: `/v2${path}`, headers: { 'x-ce-key': key } })
    assert.equal(identity.headers['content-encoding'], undefined)
    assert.equal(identity.headers.vary, 'accept-encoding')
    for (const acceptEncoding of ['gzip', 'gzip, deflate, br', 'br;q=1, *;q=0.5']) {
      const compressed = await s.m.app.inject({
        method: 'GET',
        url: `/v2${path}`,
        headers: { 'x-ce-key': key, 'accept-encoding': acceptEncoding }
      })
      assert.equal(compressed.statusCode, 200)
      assert.equal(compressed.headers['content-encoding'], 'gzip', acceptEncoding)
      assert.equal(compressed.headers.vary, 'accept-encoding')
      assert.equal(Number(compressed.headers['content-length']), compressed.rawPayload.length)
      assert.ok(compressed.rawPayload.length < identity.rawPayload.length / 3, `${path} compresses`)
      assert.equal(gunzipSync(compressed.rawPayload).toString(), identity.body)
    }
    for (const refused of ['identity', 'gzip;q=0', 'gzip;q=0, *']) {
      const plain = await s.m.app.inject({ method: 'GET', url: `/v2${path}`, headers: { 'x-ce-key': key, 'accept-encoding': refused } })
      assert.equal(plain.headers['content-encoding'], undefined, refused)
      assert.equal(plain.body, identity.body)
    }
  }
})
