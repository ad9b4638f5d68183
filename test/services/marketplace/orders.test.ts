import { test } from 'node:test'
import assert from 'node:assert/strict'
import { isErrorEnvelope, orderBody, product, startMarketplace, type MarketplaceHarness } from '../../helpers/marketplace.js'

async function setup(): Promise<{ m: MarketplaceHarness; mk: string; ck: string }> {
  const m = await startMarketplace()
  const mk = await m.key('ACME', 'merchant')
  const ck = await m.key('ACME', 'channel', 'bol')
  const created = await m.call(mk, 'POST', '/products', [
    product('SHIRT', { Children: [product('SHIRT-S'), product('SHIRT-M')] }),
    product('MUG', { Price: 7.5 })
  ])
  assert.equal(created.status, 200, created.body)
  return { m, mk, ck }
}

async function acknowledge(m: MarketplaceHarness, mk: string, order: any, reference: string) {
  return m.call(mk, 'POST', '/orders/acknowledge', {
    MerchantOrderReference: reference,
    OrderId: order.Id,
    Lines: order.Lines.map((l: any, i: number) => ({ OrderLineId: l.Id, MerchantOrderLineReference: `${reference}-${i + 1}` }))
  })
}

test('the merchant ↔ channel order story: create, fetch, acknowledge, ship, backorder, cancel, return', async () => {
  const { m, mk, ck } = await setup()
  const created = await m.call(
    ck,
    'POST',
    '/orders',
    orderBody('BOL-1', [
      ['SHIRT-S', 10, 19.99],
      ['MUG', 4, 7.5]
    ])
  )
  assert.equal(created.status, 201, created.body)
  assert.equal(created.json.StatusCode, 201)
  assert.equal(created.json.Success, true)
  const order = created.json.Content
  assert.equal(order.Status, 'NEW')
  assert.equal(order.ChannelName, 'bol')
  assert.equal(order.MerchantReference, null)
  assert.equal(order.TotalInclVat, 234.85) // exact: money is kept in cents
  assert.equal(order.Lines[0].UnitVat, 3.47) // 19.99 incl. 21 % VAT
  assert.deepEqual(
    order.Lines.map((l: any) => l.Status),
    ['NEW', 'NEW']
  )

  const listed = await m.call(mk, 'GET', '/orders/new')
  assert.equal(listed.status, 200)
  assert.equal(listed.json.Count, 1)
  assert.equal(listed.json.TotalCount, 1)
  assert.equal(listed.json.ItemsPerPage, 100)
  assert.equal(listed.json.Content[0].Id, order.Id)
  // Listing leaves the order NEW.
  assert.equal((await m.call(mk, 'GET', '/orders/new')).json.Count, 1)

  const ack = await acknowledge(m, mk, order, 'SO-1')
  assert.equal(ack.status, 201, ack.body)
  assert.equal(ack.json.Content.Status, 'IN_PROGRESS')
  assert.equal(ack.json.Content.MerchantReference, 'SO-1')
  assert.ok(ack.json.Content.AcknowledgedDate)
  assert.deepEqual(
    ack.json.Content.Lines.map((l: any) => [l.MerchantReference, l.Status]),
    [
      ['SO-1-1', 'IN_PROGRESS'],
      ['SO-1-2', 'IN_PROGRESS']
    ]
  )
  assert.equal((await m.call(mk, 'GET', '/orders/new')).json.Count, 0)
  const again = await acknowledge(m, mk, order, 'SO-1b')
  assert.equal(again.status, 409)
  assert.ok(isErrorEnvelope(again.json, 409))
  assert.match(again.json.Message, /already acknowledged as "SO-1"/)

  const status = async () => {
    const r = await m.call(mk, 'GET', '/orders/SO-1')
    assert.equal(r.status, 200, r.body)
    return {
      order: r.json.Content.Status,
      lines: r.json.Content.Lines.map((l: any) => l.Status),
      line1: r.json.Content.Lines[0],
      line2: r.json.Content.Lines[1]
    }
  }

  const ship = await m.call(mk, 'POST', '/shipments', {
    MerchantShipmentReference: 'SH-1',
    MerchantOrderReference: 'SO-1',
    TrackTraceNo: '3SABC',
    Method: 'PostNL',
    Lines: [{ MerchantOrderLineReference: 'SO-1-1', Quantity: 4 }]
  })
  assert.equal(ship.status, 201, ship.body)
  assert.equal(ship.json.Content.TrackTraceNo, '3SABC')
  // No channel acknowledged SHIRT-S in this story: its ChannelProductReference is null.
  assert.deepEqual(ship.json.Content.Lines, [
    {
      MerchantOrderLineReference: 'SO-1-1',
      ChannelOrderLineReference: 'BOL-1-L1',
      MerchantProductReference: 'SHIRT-S',
      ChannelProductReference: null,
      Quantity: 4
    }
  ])
  let s = await status()
  assert.equal(s.order, 'IN_COMBI')
  assert.deepEqual(s.lines, ['IN_PROGRESS', 'IN_PROGRESS'])
  assert.equal(s.line1.ShippedQuantity, 4)
  assert.equal(s.line1.OpenQuantity, 6)

  const backorder = await m.call(mk, 'POST', '/backorders', {
    MerchantBackorderReference: 'BO-1',
    MerchantOrderReference: 'SO-1',
    Lines: [{ MerchantOrderLineReference: 'SO-1-1', Quantity: 3, ExpectedDate: '2024-06-01' }]
  })
  assert.equal(backorder.status, 201, backorder.body)
  s = await status()
  assert.deepEqual(s.lines, ['IN_BACKORDER', 'IN_PROGRESS'])
  assert.equal(s.order, 'IN_COMBI')
  // Only 3 open units are not backordered yet.
  const tooMuchBackorder = await m.call(mk, 'POST', '/backorders', {
    MerchantBackorderReference: 'BO-2',
    MerchantOrderReference: 'SO-1',
    Lines: [{ MerchantOrderLineReference: 'SO-1-1', Quantity: 4 }]
  })
  assert.equal(tooMuchBackorder.status, 400)
  assert.ok(tooMuchBackorder.json.ValidationErrors['Lines[0].Quantity'])

  const cancel = await m.call(mk, 'POST', '/cancellations', {
    MerchantReference: 'CA-1',
    MerchantOrderReference: 'SO-1',
    Reason: 'out of stock',
    Lines: [{ MerchantOrderLineReference: 'SO-1-2', Quantity: 4 }]
  })
  assert.equal(cancel.status, 201, cancel.body)
  s = await status()
  assert.deepEqual(s.lines, ['IN_BACKORDER', 'CANCELED'])
  assert.equal(s.order, 'IN_BACKORDER')

  // Never ship more than is open: 6 open on line 1.
  const over = await m.call(mk, 'POST', '/shipments', {
    MerchantShipmentReference: 'SH-2',
    MerchantOrderReference: 'SO-1',
    Lines: [{ MerchantOrderLineReference: 'SO-1-1', Quantity: 7 }]
  })
  assert.equal(over.status, 400)
  assert.ok(isErrorEnvelope(over.json, 400))
  assert.match(over.json.Message, /6 open \(ordered 10, shipped 4, cancelled 0\)/)
  const cancelShipped = await m.call(mk, 'POST', '/cancellations', {
    MerchantReference: 'CA-2',
    MerchantOrderReference: 'SO-1',
    Lines: [{ MerchantOrderLineReference: 'SO-1-2', Quantity: 1 }]
  })
  assert.equal(cancelShipped.status, 400)

  // A return only of shipped quantity: 4 shipped so far.
  const earlyReturn = await m.call(ck, 'POST', '/returns', {
    ChannelReturnReference: 'RET-X',
    ChannelOrderReference: 'BOL-1',
    Lines: [{ ChannelOrderLineReference: 'BOL-1-L1', Quantity: 5 }]
  })
  assert.equal(earlyReturn.status, 400)
  assert.match(earlyReturn.json.Message, /4 shipped and not yet returned/)

  const rest = await m.call(mk, 'POST', '/shipments', {
    MerchantShipmentReference: 'SH-2',
    MerchantOrderReference: 'SO-1',
    Lines: [{ MerchantOrderLineReference: 'SO-1-1', Quantity: 6 }]
  })
  assert.equal(rest.status, 201, rest.body)
  s = await status()
  assert.deepEqual(s.lines, ['SHIPPED', 'CANCELED'])
  assert.equal(s.order, 'CLOSED')
  assert.equal(s.line1.BackorderQuantity, 0)
  const afterClose = await m.call(mk, 'POST', '/shipments', {
    MerchantShipmentReference: 'SH-3',
    MerchantOrderReference: 'SO-1',
    Lines: [{ MerchantOrderLineReference: 'SO-1-1', Quantity: 1 }]
  })
  assert.equal(afterClose.status, 409)
  assert.match(afterClose.json.Message, /is CLOSED/)

  // The customer returns part, through the channel.
  const ret = await m.call(ck, 'POST', '/returns', {
    ChannelReturnReference: 'RET-1',
    ChannelOrderReference: 'BOL-1',
    Reason: 'PRODUCT_DEFECT',
    CustomerComment: 'torn',
    Lines: [{ ChannelOrderLineReference: 'BOL-1-L1', Quantity: 2 }]
  })
  assert.equal(ret.status, 201, ret.body)
  assert.equal(ret.json.Content.Status, 'DECLARED')
  assert.equal(ret.json.Content.MerchantOrderReference, 'SO-1')
  s = await status()
  assert.equal(s.line1.ReturnedQuantity, 2)
  assert.deepEqual(s.lines, ['SHIPPED', 'CANCELED'])
  const merchantReturn = await m.call(mk, 'POST', '/returns', {
    MerchantReturnReference: 'MR-1',
    MerchantOrderReference: 'SO-1',
    Lines: [{ MerchantOrderLineReference: 'SO-1-1', Quantity: 8 }]
  })
  assert.equal(merchantReturn.status, 201, merchantReturn.body)
  s = await status()
  assert.deepEqual(s.lines, ['RETURNED', 'CANCELED'])
  assert.equal(s.order, 'CLOSED')
  const overReturn = await m.call(mk, 'POST', '/returns', {
    MerchantReturnReference: 'MR-2',
    MerchantOrderReference: 'SO-1',
    Lines: [{ MerchantOrderLineReference: 'SO-1-1', Quantity: 1 }]
  })
  assert.equal(overReturn.status, 400)

  // Get one, list since, duplicates.
  const one = await m.call(mk, 'GET', '/shipments/SH-1')
  assert.equal(one.status, 200)
  assert.equal(one.json.Content.MerchantOrderReference, 'SO-1')
  assert.equal((await m.call(mk, 'GET', '/backorders/BO-1')).json.Content.Lines[0].ExpectedDate, '2024-06-01')
  assert.equal((await m.call(mk, 'GET', '/cancellations/CA-1')).json.Content.Reason, 'out of stock')
  assert.equal((await m.call(ck, 'GET', '/returns/RET-1')).status, 200)
  assert.equal((await m.call(mk, 'GET', '/returns/MR-1')).status, 200)
  assert.equal((await m.call(mk, 'GET', '/shipments/NOPE')).status, 404)
  const since = await m.call(mk, 'GET', '/shipments?createdSince=2000-01-01T00:00:00%2B02:00')
  assert.equal(since.status, 200)
  assert.deepEqual(
    since.json.Content.map((x: any) => x.MerchantShipmentReference),
    ['SH-1', 'SH-2']
  )
  assert.equal(since.json.TotalCount, 2)
  const future = await m.call(mk, 'GET', `/shipments?createdSince=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)
  assert.equal(future.json.Count, 0)
  const inclusive = await m.call(mk, 'GET', `/shipments?createdSince=${encodeURIComponent(one.json.Content.CreatedAt)}`)
  assert.equal(inclusive.json.Content[0].MerchantShipmentReference, 'SH-1')
  assert.equal((await m.call(mk, 'GET', '/shipments')).status, 400)
  assert.equal((await m.call(mk, 'GET', '/shipments?createdSince=2021-02-30')).status, 400)
  const duplicate = await m.call(mk, 'POST', '/cancellations', {
    MerchantReference: 'CA-1',
    MerchantOrderReference: 'SO-1',
    Lines: [
      { MerchantOrderLineReference: 'SO-1-1', Quantity: 0 },
      { MerchantOrderLineReference: 'SO-1-2', Quantity: 0 }
    ]
  })
  assert.equal(duplicate.status, 400) // every line 0: nothing to cancel
})

test('order creation validates and refuses duplicates; unknown references answer 404', async () => {
  const { m, mk, ck } = await setup()
  assert.equal((await m.call(ck, 'POST', '/orders', orderBody('D-1', [['MUG', 1, 7.5]]))).status, 201)
  const dup = await m.call(ck, 'POST', '/orders', orderBody('D-1', [['MUG', 1, 7.5]]))
  assert.equal(dup.status, 409)
  assert.ok(isErrorEnvelope(dup.json, 409))
  const unknownProduct = await m.call(ck, 'POST', '/orders', orderBody('D-2', [['NOPE', 1, 7.5]]))
  assert.equal(unknownProduct.status, 404)
  assert.match(unknownProduct.json.Message, /NOPE/)
  const parent = await m.call(ck, 'POST', '/orders', orderBody('D-3', [['SHIRT', 1, 7.5]]))
  assert.equal(parent.status, 400)
  const cents = await m.call(ck, 'POST', '/orders', orderBody('D-4', [['MUG', 1, 7.555]]))
  assert.equal(cents.status, 400)
  assert.deepEqual(Object.keys(cents.json.ValidationErrors), ['Lines[0].UnitPriceInclVat'])
  const invalid = await m.call(ck, 'POST', '/orders', {
    ChannelReference: 'D-5',
    Email: 'not-an-email',
    CurrencyCode: 'EURO',
    ShippingAddress: {},
    Lines: [{ ChannelReference: 'a', MerchantProductReference: 'MUG', Quantity: 0, UnitPriceInclVat: 1 }]
  })
  assert.equal(invalid.status, 400)
  assert.ok(isErrorEnvelope(invalid.json, 400))
  for (const key of ['Email', 'CurrencyCode', 'Lines[0].Quantity'])
    assert.ok(invalid.json.ValidationErrors[key], `${key} in ${invalid.body}`)
  // Property names in any case; output in PascalCase.
  const camel = await m.call(ck, 'POST', '/orders', {
    channelReference: 'D-6',
    email: 'a@b.c',
    currencyCode: 'eur',
    shippingAddress: { firstName: 'Bo', countryIso: 'BE' },
    EXTRADATA: { myKey: 'v' },
    lines: [{ channelReference: 'x', merchantProductReference: 'MUG', quantity: 2, unitPriceInclVat: 7.5 }]
  })
  assert.equal(camel.status, 201, camel.body)
  assert.equal(camel.json.Content.CurrencyCode, 'EUR')
  assert.equal(camel.json.Content.ShippingAddress.FirstName, 'Bo')
  assert.deepEqual(camel.json.Content.ExtraData, { myKey: 'v' })
  assert.equal(camel.json.Content.Lines[0].Quantity, 2)

  const orders = (await m.call(mk, 'GET', '/orders/new')).json.Content
  const first = orders[0]
  const missingLine = await m.call(mk, 'POST', '/orders/acknowledge', {
    MerchantOrderReference: 'X',
    OrderId: 999999,
    Lines: [{ OrderLineId: 1, MerchantOrderLineReference: 'X-1' }]
  })
  assert.equal(missingLine.status, 404)
  const wrongLine = await m.call(mk, 'POST', '/orders/acknowledge', {
    MerchantOrderReference: 'X',
    OrderId: first.Id,
    Lines: [{ OrderLineId: 999999, MerchantOrderLineReference: 'X-1' }]
  })
  assert.equal(wrongLine.status, 404)
  const reserved = await acknowledge(m, mk, first, 'new')
  assert.equal(reserved.status, 400, reserved.body)
  assert.match(reserved.json.Message, /"new" is reserved/)
  assert.equal((await m.call(mk, 'GET', '/orders/new')).json.Count, 2, 'nothing was acknowledged')
  assert.equal((await acknowledge(m, mk, first, 'REF')).status, 201)
  // Order references are unique per customer.
  const reuse = await acknowledge(m, mk, orders[1], 'REF')
  assert.equal(reuse.status, 409)
  assert.match(reuse.json.Message, /already used/)
  assert.equal((await m.call(mk, 'GET', '/orders/new')).json.Count, 1)
  assert.equal((await m.call(mk, 'GET', '/orders/UNKNOWN')).status, 404)
  assert.equal((await m.call(mk, 'GET', '/nope')).status, 404)
  assert.ok(isErrorEnvelope((await m.call(mk, 'GET', '/nope')).json, 404))
})

test('keys: missing, unknown and revoked keys get 401; roles are enforced with 403; X-CE-KEY works', async () => {
  const { m, mk, ck } = await setup()
  const missing = await m.call(undefined, 'GET', '/orders/new')
  assert.equal(missing.status, 401)
  assert.ok(isErrorEnvelope(missing.json, 401))
  const unknown = await m.call('mk_nope', 'GET', '/orders/new')
  assert.equal(unknown.status, 401)
  assert.match(unknown.json.Message, /API key is unknown/)
  const header = await m.app.inject({ method: 'GET', url: '/v2/orders/new', headers: { 'x-ce-key': mk } })
  assert.equal(header.statusCode, 200)
  const upper = await m.app.inject({ method: 'GET', url: `/v2/orders/new?APIKEY=${mk}` })
  assert.equal(upper.statusCode, 200)

  const channelOnMerchant = await m.call(ck, 'GET', '/orders/new')
  assert.equal(channelOnMerchant.status, 403)
  assert.match(channelOnMerchant.json.Message, /merchant operation/)
  assert.equal(
    (
      await m.call(ck, 'POST', '/shipments', {
        MerchantShipmentReference: 'x',
        MerchantOrderReference: 'y',
        Lines: [{ MerchantOrderLineReference: 'z', Quantity: 1 }]
      })
    ).status,
    403
  )
  assert.equal((await m.call(ck, 'POST', '/products', product('Z'))).status, 403)
  const merchantOnChannel = await m.call(mk, 'POST', '/orders', orderBody('R-1', [['MUG', 1, 7.5]]))
  assert.equal(merchantOnChannel.status, 403)
  assert.match(merchantOnChannel.json.Message, /channel operation/)
  assert.equal((await m.call(mk, 'GET', '/products/data')).status, 403)
  assert.equal((await m.call(mk, 'GET', '/products/offers')).status, 403)

  const { revokeApiKey, listApiKeys } = await import('../../../src/services/marketplace/index.js')
  const listed = await listApiKeys(m.database, 'ACME')
  assert.equal(listed.length, 2)
  assert.ok(
    listed.every((k) => !JSON.stringify(k).includes(mk.slice(12))),
    'the list never shows the key'
  )
  await revokeApiKey(m.database, mk.slice(0, 11))
  const revoked = await m.call(mk, 'GET', '/orders/new')
  assert.equal(revoked.status, 401)
  assert.match(revoked.json.Message, /revoked/)
  const rows = await m.database.db.selectFrom('mp_api_keys').select('key_hash').execute()
  assert.ok(
    rows.every((r: { key_hash: string }) => r.key_hash !== mk && /^[0-9a-f]{64}$/.test(r.key_hash)),
    'keys are stored hashed'
  )
})

test('paging: 100 per page with TotalCount and ItemsPerPage', async () => {
  const { m, mk, ck } = await setup()
  for (let i = 0; i < 105; i++) assert.equal((await m.call(ck, 'POST', '/orders', orderBody(`P-${i}`, [['MUG', 1, 7.5]]))).status, 201)
  const first = await m.call(mk, 'GET', '/orders/new')
  assert.equal(first.json.Count, 100)
  assert.equal(first.json.TotalCount, 105)
  const second = await m.call(mk, 'GET', '/orders/new?page=2')
  assert.deepEqual(
    second.json.Content.map((o: any) => o.ChannelReference),
    ['P-100', 'P-101', 'P-102', 'P-103', 'P-104']
  )
})

test('optional fields the official OpenAPI marks nullable accept null on orders, shipments, cancellations and returns', async () => {
  const { m, mk, ck } = await setup()
  const nulls = {
    Phone: null,
    CompanyRegistrationNo: null,
    VatNo: null,
    PaymentMethod: null,
    ChannelCustomerReference: null,
    ExtraData: null
  }
  const address = { FirstName: 'Ann', CompanyName: null, HouseNrAddition: null, Region: null, CountryIso: 'NL' }
  const created = await m.call(
    ck,
    'POST',
    '/orders',
    orderBody('BOL-NULL', [['MUG', 3, 7.5]], { ...nulls, BillingAddress: address, ShippingAddress: address })
  )
  assert.equal(created.status, 201, created.body)
  assert.equal(created.json.Content.Phone, null)
  assert.deepEqual(created.json.Content.ExtraData, {})
  assert.deepEqual(created.json.Content.ShippingAddress, address)
  assert.equal((await acknowledge(m, mk, created.json.Content, 'SO-NULL')).status, 201)
  const line = { MerchantOrderLineReference: 'SO-NULL-1', Quantity: 1 }
  const shipped = await m.call(mk, 'POST', '/shipments', {
    MerchantShipmentReference: 'SH-NULL',
    MerchantOrderReference: 'SO-NULL',
    TrackTraceNo: null,
    TrackTraceUrl: null,
    Method: null,
    Lines: [line]
  })
  assert.equal(shipped.status, 201, shipped.body)
  assert.equal(shipped.json.Content.TrackTraceNo, null)
  const cancelled = await m.call(mk, 'POST', '/cancellations', {
    MerchantReference: 'CA-NULL',
    MerchantOrderReference: 'SO-NULL',
    Reason: null,
    Lines: [line]
  })
  assert.equal(cancelled.status, 201, cancelled.body)
  const returned = await m.call(mk, 'POST', '/returns', {
    MerchantReturnReference: 'RE-NULL',
    MerchantOrderReference: 'SO-NULL',
    CustomerComment: null,
    MerchantComment: null,
    Lines: [line]
  })
  assert.equal(returned.status, 201, returned.body)
  assert.equal(returned.json.Content.CustomerComment, null)
  // Fields the OpenAPI does not mark nullable still refuse null.
  const refused = await m.call(ck, 'POST', '/orders', orderBody('BOL-NULL-2', [['MUG', 1, 7.5]], { ShippingCostsInclVat: null }))
  assert.equal(refused.status, 400, refused.body)
  assert.ok(isErrorEnvelope(refused.json, 400), refused.body)
})

test('an acknowledgement without Lines (2016 clients) names line n "<order>-<n>", skipping a reference another line has', async () => {
  const { m, mk, ck } = await setup()
  for (const [reference, lines] of [
    ['BOL-A', [['SHIRT-S', 2, 19.99] as [string, number, number], ['MUG', 3, 7.5] as [string, number, number]]],
    ['BOL-B', [['SHIRT-M', 1, 19.99] as [string, number, number]]]
  ] as const)
    assert.equal((await m.call(ck, 'POST', '/orders', orderBody(reference, [...lines]))).status, 201)
  const [a, b] = (await m.call(mk, 'GET', '/orders/new')).json.Content
  // Order B takes "SO-5-2" as a line reference of its own first.
  const ackB = await m.call(mk, 'POST', '/orders/acknowledge', {
    MerchantOrderReference: 'SO-7',
    OrderId: b.Id,
    Lines: [{ OrderLineId: b.Lines[0].Id, MerchantOrderLineReference: 'SO-5-2' }]
  })
  assert.equal(ackB.status, 201, ackB.body)
  const ackA = await m.call(mk, 'POST', '/orders/acknowledge', { MerchantOrderReference: 'SO-5', OrderId: a.Id })
  assert.equal(ackA.status, 201, ackA.body)
  assert.deepEqual(
    ackA.json.Content.Lines.map((l: any) => [l.MerchantReference, l.Status]),
    [
      ['SO-5-1', 'IN_PROGRESS'],
      [null, 'IN_PROGRESS']
    ]
  )

  // Later calls name the first line by its reference, the second by its product; "SO-5-2" is order SO-7's line.
  const backorder = await m.call(mk, 'POST', '/backorders', {
    MerchantBackorderReference: 'BO-5',
    MerchantOrderReference: 'SO-5',
    Lines: [
      { MerchantOrderLineReference: 'SO-5-1', Quantity: 1 },
      { MerchantOrderLineReference: 'MUG', Quantity: 2 }
    ]
  })
  assert.equal(backorder.status, 201, backorder.body)
  assert.deepEqual(
    backorder.json.Content.Lines.map((l: any) => [l.MerchantOrderLineReference, l.MerchantProductReference, l.Quantity]),
    [
      ['SO-5-1', 'SHIRT-S', 1],
      ['MUG', 'MUG', 2]
    ]
  )
  const foreign = await m.call(mk, 'POST', '/shipments', {
    MerchantShipmentReference: 'SH-5',
    MerchantOrderReference: 'SO-5',
    Lines: [{ MerchantOrderLineReference: 'SO-5-2', Quantity: 1 }]
  })
  assert.equal(foreign.status, 404, foreign.body)
  assert.match(foreign.json.Message, /order "SO-5" has no line "SO-5-2"/)
  assert.equal((await m.call(mk, 'GET', '/orders/SO-5')).json.Content.Status, 'IN_BACKORDER')
})
