import { test } from 'node:test'
import assert from 'node:assert/strict'
import { isErrorEnvelope, product, startMarketplace } from '../../helpers/marketplace.js'

const refs = (list: any[]) => list.map((p) => p.MerchantProductReference)

test('product sync: parents before children, repeated GET is stable, ack shows only real changes, removal', async () => {
  const m = await startMarketplace()
  const mk = await m.key('ACME', 'merchant')
  const ck = await m.key('ACME', 'channel', 'bol')
  const up = await m.call(mk, 'POST', '/products', {
    ...product('TEE', { Description: 'a shirt' }),
    Children: [product('TEE-S', { Size: 'S' }), product('TEE-M', { Size: 'M' })]
  })
  assert.equal(up.status, 200, up.body)
  // The official 2016 client's ProductCreationResult (MARKETPLACE_COMPAT=g1 answers the products written instead).
  assert.deepEqual(up.json.Content, { AcceptedCount: 3, RejectedCount: 0, ProductMessages: [] })
  assert.equal((await m.call(mk, 'GET', '/products/TEE-S')).json.Content.ParentMerchantReference, 'TEE')
  assert.equal((await m.call(mk, 'POST', '/products', [product('LONE', { Price: 5 })])).status, 200)

  const first = await m.call(ck, 'GET', '/products/data')
  assert.equal(first.status, 200)
  assert.deepEqual(refs(first.json.Content.ToBeCreated), ['TEE', 'LONE'], 'children wait for their parent')
  assert.equal(first.json.ToBeCreatedTotalCount, 2)
  const repeat = await m.call(ck, 'GET', '/products/data')
  assert.deepEqual(repeat.json, first.json, 'a repeated GET before the ack returns the same set')

  const ack = await m.call(ck, 'POST', '/products/data', {
    Created: [
      { MerchantReference: 'TEE', ChannelReference: 'c-tee' },
      { MerchantReference: 'LONE', ChannelReference: 'c-lone' }
    ]
  })
  assert.equal(ack.status, 201, ack.body)
  const second = await m.call(ck, 'GET', '/products/data')
  assert.deepEqual(refs(second.json.Content.ToBeCreated), ['TEE-S', 'TEE-M'])
  assert.equal(second.json.Content.ToBeCreated[0].ParentChannelReference, 'c-tee')
  assert.deepEqual(second.json.Content.ToBeUpdated, [])
  // A retried ack is harmless; the same ChannelReference for another product is a conflict.
  assert.equal(
    (await m.call(ck, 'POST', '/products/data', { Created: [{ MerchantReference: 'TEE', ChannelReference: 'c-tee' }] })).status,
    201
  )
  const dupRef = await m.call(ck, 'POST', '/products/data', { Created: [{ MerchantReference: 'TEE-S', ChannelReference: 'c-tee' }] })
  assert.equal(dupRef.status, 409)
  assert.ok(isErrorEnvelope(dupRef.json, 409))
  assert.equal(
    (
      await m.call(ck, 'POST', '/products/data', {
        Created: [
          { MerchantReference: 'TEE-S', ChannelReference: 'c-s' },
          { MerchantReference: 'TEE-M', ChannelReference: 'c-m' }
        ]
      })
    ).status,
    201
  )
  const quiet = await m.call(ck, 'GET', '/products/data')
  assert.deepEqual([quiet.json.ToBeCreatedTotalCount, quiet.json.ToBeUpdatedTotalCount, quiet.json.ToBeRemovedTotalCount], [0, 0, 0])

  // Re-posting identical data is no change; a real change is one update.
  assert.equal((await m.call(mk, 'POST', '/products', [product('LONE', { Price: 5 })])).status, 200)
  assert.equal((await m.call(ck, 'GET', '/products/data')).json.ToBeUpdatedTotalCount, 0)
  assert.equal((await m.call(mk, 'POST', '/products', [product('LONE', { Price: 5, Name: 'Renamed' })])).status, 200)
  const changed = await m.call(ck, 'GET', '/products/data')
  assert.deepEqual(refs(changed.json.Content.ToBeUpdated), ['LONE'])
  assert.equal(changed.json.Content.ToBeUpdated[0].ChannelProductReference, 'c-lone')
  assert.equal(changed.json.Content.ToBeUpdated[0].Name, 'Renamed')
  // Changed again after that GET: acknowledging the earlier GET must not swallow the new change.
  assert.equal((await m.call(mk, 'POST', '/products', [product('LONE', { Price: 5, Name: 'Renamed twice' })])).status, 200)
  assert.equal((await m.call(ck, 'POST', '/products/data', { Updated: ['c-lone'] })).status, 201)
  const pending = await m.call(ck, 'GET', '/products/data')
  assert.deepEqual(refs(pending.json.Content.ToBeUpdated), ['LONE'])
  assert.equal(pending.json.Content.ToBeUpdated[0].Name, 'Renamed twice')
  assert.equal((await m.call(ck, 'POST', '/products/data', { updated: ['c-lone'] })).status, 201)
  assert.equal((await m.call(ck, 'GET', '/products/data')).json.ToBeUpdatedTotalCount, 0)

  // Updated/Removed must name references acknowledged in Created.
  const unknown = await m.call(ck, 'POST', '/products/data', { Updated: ['never'] })
  assert.equal(unknown.status, 400)
  assert.ok(unknown.json.ValidationErrors['Updated[0]'])
  const stillActive = await m.call(ck, 'POST', '/products/data', { Removed: ['c-lone'] })
  assert.equal(stillActive.status, 400)

  // Deactivating a parent deactivates its children; they are kept and their references stay taken.
  const del = await m.call(mk, 'DELETE', '/products/TEE')
  assert.equal(del.status, 200)
  assert.equal((await m.call(mk, 'GET', '/products/TEE-S')).json.Content.IsActive, false)
  const removed = await m.call(ck, 'GET', '/products/data')
  // The channel's own references (the official 2016 client's ToBeRemoved: string[]), ready to echo in Removed.
  assert.deepEqual(removed.json.Content.ToBeRemoved, ['c-tee', 'c-s', 'c-m'])
  assert.equal((await m.call(ck, 'POST', '/products/data', { Removed: ['c-tee', 'c-s', 'c-m'] })).status, 201)
  assert.equal((await m.call(ck, 'GET', '/products/data')).json.ToBeRemovedTotalCount, 0)
  const reuse = await m.call(mk, 'POST', '/products', product('TEE'))
  assert.equal(reuse.status, 409)
  assert.equal((await m.call(mk, 'DELETE', '/products/NOPE')).status, 404)
  assert.equal((await m.call(mk, 'GET', '/products/NOPE')).status, 404)

  // A channel that starts later gets only active products.
  const late = await m.key('ACME', 'channel', 'amazon')
  assert.deepEqual(refs((await m.call(late, 'GET', '/products/data')).json.Content.ToBeCreated), ['LONE'])
})

test('products: one level of nesting, flat arrays with ParentMerchantReference, validation', async () => {
  const m = await startMarketplace()
  const mk = await m.key('ACME', 'merchant')
  const nested = await m.call(mk, 'POST', '/products', { ...product('A'), Children: [{ ...product('A-1'), Children: [product('A-1-x')] }] })
  assert.equal(nested.status, 400)
  assert.ok(isErrorEnvelope(nested.json, 400))
  assert.match(nested.json.Message, /one level/)
  assert.equal((await m.call(mk, 'GET', '/products/A')).status, 404, 'a rejected upsert writes nothing')
  const flat = await m.call(mk, 'POST', '/products', [product('B-1', { ParentMerchantReference: 'B' }), product('B')])
  assert.equal(flat.status, 200, flat.body)
  const child = await m.call(mk, 'GET', '/products/B-1')
  assert.equal(child.json.Content.ParentMerchantReference, 'B')
  const grandchild = await m.call(mk, 'POST', '/products', [product('B-1-x', { ParentMerchantReference: 'B-1' })])
  assert.equal(grandchild.status, 400)
  const parentAsChild = await m.call(mk, 'POST', '/products', [product('B', { ParentMerchantReference: 'C' }), product('C')])
  assert.equal(parentAsChild.status, 400)
  const orphan = await m.call(mk, 'POST', '/products', [product('D', { ParentMerchantReference: 'NOPE' })])
  assert.equal(orphan.status, 404)
  const twice = await m.call(mk, 'POST', '/products', [product('E'), product('E')])
  assert.equal(twice.status, 400)
  const badPrice = await m.call(mk, 'POST', '/products', product('F', { Price: 1.234 }))
  assert.equal(badPrice.status, 400)
  assert.ok(badPrice.json.ValidationErrors['[0].Price'], badPrice.body)
  const noName = await m.call(mk, 'POST', '/products', { merchantProductReference: 'G' })
  assert.equal(noName.status, 400)
  const view = (await m.call(mk, 'GET', '/products/B')).json.Content
  assert.equal(view.Price, 19.99)
  assert.equal(view.IsActive, true)
  assert.equal(view.Stock, 10)
})

test('offers: price and stock changes of created products, acknowledged by ChannelReference', async () => {
  const m = await startMarketplace()
  const mk = await m.key('ACME', 'merchant')
  const ck = await m.key('ACME', 'channel', 'bol')
  await m.call(mk, 'POST', '/products', [product('O1', { Price: 10, Stock: 3 }), product('O2', { Price: 20, Stock: 4 }), product('O3')])
  assert.equal((await m.call(ck, 'GET', '/products/offers')).json.TotalCount, 0, 'no offers before the channel created the product')
  await m.call(ck, 'GET', '/products/data')
  await m.call(ck, 'POST', '/products/data', {
    Created: [
      { MerchantReference: 'O1', ChannelReference: 'c1' },
      { MerchantReference: 'O2', ChannelReference: 'c2' }
    ]
  })
  assert.equal((await m.call(ck, 'GET', '/products/offers')).json.TotalCount, 0, 'creation carried the current price and stock')
  await m.call(mk, 'POST', '/products', [
    product('O1', { Price: 11, Stock: 3 }),
    product('O2', { Price: 20, Stock: 0 }),
    product('O3', { Price: 1 })
  ])
  const offers = await m.call(ck, 'GET', '/products/offers')
  assert.deepEqual(offers.json.Content, [
    { ChannelProductReference: 'c1', MerchantProductReference: 'O1', Price: 11, Stock: 3 },
    { ChannelProductReference: 'c2', MerchantProductReference: 'O2', Price: 20, Stock: 0 }
  ])
  assert.deepEqual((await m.call(ck, 'GET', '/products/offers')).json, offers.json)
  // Price/stock are not product-data updates.
  assert.equal((await m.call(ck, 'GET', '/products/data')).json.ToBeUpdatedTotalCount, 0)
  const bad = await m.call(ck, 'POST', '/products/offers', ['c1', 'nope'])
  assert.equal(bad.status, 400)
  assert.ok(bad.json.ValidationErrors['[1]'], bad.body)
  assert.equal((await m.call(ck, 'GET', '/products/offers')).json.TotalCount, 2, 'a rejected ack changes nothing')
  assert.equal((await m.call(ck, 'POST', '/products/offers', ['c1'])).status, 201)
  assert.deepEqual(
    (await m.call(ck, 'GET', '/products/offers')).json.Content.map((o: any) => o.ChannelProductReference),
    ['c2']
  )
})

test('paging of product changes: pageSize up to 1000, totals per list', async () => {
  const m = await startMarketplace()
  const mk = await m.key('ACME', 'merchant')
  const ck = await m.key('ACME', 'channel', 'bol')
  const body = Array.from({ length: 250 }, (_, i) => product(`P${String(i).padStart(4, '0')}`))
  assert.equal((await m.call(mk, 'POST', '/products', body)).status, 200)
  const page1 = await m.call(ck, 'GET', '/products/data')
  assert.equal(page1.json.Content.ToBeCreated.length, 100)
  assert.equal(page1.json.ItemsPerPage, 100)
  assert.equal(page1.json.ToBeCreatedTotalCount, 250)
  const page3 = await m.call(ck, 'GET', '/products/data?page=3')
  assert.equal(page3.json.Content.ToBeCreated.length, 50)
  const big = await m.call(ck, 'GET', '/products/data?pageSize=1000')
  assert.equal(big.json.Content.ToBeCreated.length, 250)
  assert.equal((await m.call(ck, 'GET', '/products/data?pageSize=1001')).status, 400)
})

test('product data acknowledgement: Created, Updated and Removed may be null (nullable in the official OpenAPI)', async () => {
  const m = await startMarketplace()
  const mk = await m.key('ACME', 'merchant')
  const ck = await m.key('ACME', 'channel', 'bol')
  await m.call(mk, 'POST', '/products', [product('N1')])
  await m.call(ck, 'GET', '/products/data')
  const ack = await m.call(ck, 'POST', '/products/data', {
    Created: [{ MerchantReference: 'N1', ChannelReference: 'n1' }],
    Updated: null,
    Removed: null
  })
  assert.equal(ack.status, 201, ack.body)
  assert.equal((await m.call(ck, 'GET', '/products/data')).json.ToBeCreatedTotalCount, 0)
  assert.equal((await m.call(ck, 'POST', '/products/data', { Created: null, Updated: null, Removed: null })).status, 201)
  assert.equal(
    (await m.call(ck, 'POST', '/products/data', { Created: null, Updated: [null] })).status,
    400,
    'a null reference is still refused'
  )
})

test('ExtraData answers as the official 2016 client reads it: a list of {Key, Value, Type, IsPublic}, Type TEXT unless sent', async () => {
  const m = await startMarketplace()
  const mk = await m.key('ACME', 'merchant')
  const ck = await m.key('ACME', 'channel', 'bol')
  const mapped = await m.call(mk, 'POST', '/products', product('MAP', { ExtraData: { colour: 'red', size: 'XL' } }))
  assert.deepEqual(mapped.json.Content, { AcceptedCount: 1, RejectedCount: 0, ProductMessages: [] })
  const listed = await m.call(mk, 'POST', '/products', [
    product('LIST', { ExtraData: [{ Key: 'manual', Value: 'https://x.example/m.pdf', Type: 'URL', IsPublic: false }] })
  ])
  assert.equal(listed.status, 200, listed.body)
  assert.deepEqual((await m.call(mk, 'GET', '/products/MAP')).json.Content.ExtraData, [
    { Key: 'colour', Value: 'red', Type: 'TEXT', IsPublic: null },
    { Key: 'size', Value: 'XL', Type: 'TEXT', IsPublic: null }
  ])
  const changes = (await m.call(ck, 'GET', '/products/data')).json.Content.ToBeCreated
  assert.deepEqual(
    changes.map((p: any) => [p.MerchantProductReference, p.ExtraData]),
    [
      [
        'MAP',
        [
          { Key: 'colour', Value: 'red', Type: 'TEXT', IsPublic: null },
          { Key: 'size', Value: 'XL', Type: 'TEXT', IsPublic: null }
        ]
      ],
      ['LIST', [{ Key: 'manual', Value: 'https://x.example/m.pdf', Type: 'URL', IsPublic: false }]]
    ]
  )
})
