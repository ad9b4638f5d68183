import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startMarketplace, type MarketplaceHarness } from '../../helpers/marketplace.js'
import { callAsClient, clientProblems, type ClientCall, type ResponseType } from '../../helpers/php-client-2016.js'

/**
 * Every operation of ChannelEngine's PHP client of November 2016 (merchant-api-client-php @ 993926d
 * / cfc86ab), sent as that client sends it and read as it reads the answer (the real client runs in
 * test/e2e/marketplace-php-client.test.ts). One story, in order:
 * each row names the client file it comes from, the request it makes and the response model it
 * deserialises into. Request bodies use the models' wire names (their attributeMap).
 */

interface World {
  m: MarketplaceHarness
  mk: string
  ck: string
  ids: Record<string, number>
  orderId?: number
}
interface Row {
  op: string
  /** The lib/Api file (operation) and lib/Model files (request, response) the row is derived from. */
  from: string
  role: 'merchant' | 'channel'
  call: (w: World) => ClientCall
  returns: ResponseType
  /** Further checks on the decoded body (what the client goes on to use). */
  then?: (body: any, w: World) => void | Promise<void>
}

const SINCE = { createdSince: '2016-11-15T00:00:00+00:00' }
const address = {
  Gender: 'FEMALE',
  FirstName: 'Ann',
  LastName: 'Buyer',
  StreetName: 'Main',
  HouseNr: '1',
  ZipCode: '1000AA',
  City: 'Amsterdam',
  CountryIso: 'NL',
  CompanyName: null
}

const ROWS: Row[] = [
  {
    op: 'productCreate',
    from: 'ProductApi.php; MerchantProductRequest.php, ExtraDataItem.php → SingleOfProductCreationResult.php',
    role: 'merchant',
    call: () => ({
      method: 'POST',
      path: '/products',
      body: [
        {
          MerchantReference: 'TEE',
          Name: 'T-shirt',
          Brand: 'Acme',
          VatRateType: 'STANDARD',
          ExtraData: [{ Key: 'material', Value: 'cotton', Type: 'TEXT', IsPublic: true }],
          Url: 'https://shop.example/tee'
        },
        {
          MerchantReference: 'TEE-M',
          ParentMerchantReference: 'TEE',
          Name: 'T-shirt M',
          Size: 'M',
          Stock: 12,
          Price: 19.99,
          MSRP: 24.95,
          VatRateType: 'STANDARD',
          Ean: null
        },
        { MerchantReference: 'MUG', Name: 'Mug', Stock: 5, Price: 7.5, VatRateType: 'REDUCED' }
      ]
    }),
    returns: { kind: 'Single', of: 'ProductCreationResult' },
    then: (body) => assert.deepEqual([body.Content.AcceptedCount, body.Content.RejectedCount], [3, 0])
  },
  {
    op: 'productGetByMerchantReference',
    from: 'ProductApi.php → SingleOfMerchantProductResponse.php',
    role: 'merchant',
    call: () => ({ method: 'GET', path: '/products/merchant/TEE' }),
    returns: { kind: 'Single', of: 'MerchantProductResponse' },
    then: (body) => {
      assert.equal(body.Content.VatRateType, 'STANDARD')
      assert.deepEqual(body.Content.ExtraData, [{ Key: 'material', Value: 'cotton', Type: 'TEXT', IsPublic: true }])
    }
  },
  {
    op: 'productGetDataChanges',
    from: 'ProductApi.php (maxCount) → SingleOfChannelProductChangesResponse.php',
    role: 'channel',
    call: () => ({ method: 'GET', path: '/products/data', query: { maxCount: '100' } }),
    returns: { kind: 'Single', of: 'ChannelProductChangesResponse' },
    then: (body, w) => {
      // The client knows a product only by its Id here (ChannelProductResponse has no reference).
      for (const p of body.Content.ToBeCreated) w.ids[p.Name] = p.Id
      assert.deepEqual(Object.keys(w.ids).sort(), ['Mug', 'T-shirt'])
    }
  },
  {
    op: 'productAcknowledgeDataChanges',
    from: 'ProductApi.php; ChannelProcessedChangesRequest.php, ChannelReferencesRequest.php → ApiResponse.php',
    role: 'channel',
    call: (w) => ({
      method: 'POST',
      path: '/products/data',
      body: {
        Created: [
          { Id: w.ids['T-shirt'], ChannelReference: 'bol-TEE' },
          { Id: w.ids.Mug, ChannelReference: 'bol-MUG' }
        ]
      }
    }),
    returns: { kind: 'ApiResponse' },
    then: async (_body, w) => {
      // The child follows once its parent is acknowledged: the same two calls again.
      const next = await callAsClient(w.m.app, w.ck, { method: 'GET', path: '/products/data' })
      const child = next.json.Content.ToBeCreated[0]
      assert.deepEqual([child.Name, child.ParentChannelReference], ['T-shirt M', 'bol-TEE'])
      const ack = await callAsClient(w.m.app, w.ck, {
        method: 'POST',
        path: '/products/data',
        body: { Created: [{ Id: child.Id, ChannelReference: 'bol-TEE-M' }] }
      })
      assert.deepEqual(clientProblems(ack, { kind: 'ApiResponse' }), [])
      // A price change for the offers below.
      const priced = await callAsClient(w.m.app, w.mk, {
        method: 'POST',
        path: '/products',
        body: [{ MerchantReference: 'MUG', Name: 'Mug', Stock: 5, Price: 8.5 }]
      })
      assert.equal(priced.status, 200, priced.body)
    }
  },
  {
    op: 'productGetOfferChanges',
    from: 'ProductApi.php → CollectionOfChannelOfferResponse.php',
    role: 'channel',
    call: () => ({ method: 'GET', path: '/products/offers' }),
    returns: { kind: 'Collection', of: 'ChannelOfferResponse' },
    then: (body) =>
      assert.deepEqual(
        body.Content.map((o: any) => [o.ChannelProductReference, o.Price]),
        [['bol-MUG', 8.5]]
      )
  },
  {
    op: 'productAcknowledgeOfferChanges',
    from: 'ProductApi.php (string[] body) → ApiResponse.php',
    role: 'channel',
    call: () => ({ method: 'POST', path: '/products/offers', body: ['bol-MUG'] }),
    returns: { kind: 'ApiResponse' }
  },
  {
    op: 'orderCreate',
    from: 'OrderApi.php; ChannelOrderRequest.php, ChannelOrderLineRequest.php, EntitiesAddressModels.php → ApiResponse.php',
    role: 'channel',
    call: () => ({
      method: 'POST',
      path: '/orders',
      body: {
        ChannelReference: 'BOL-1',
        Phone: '0612345678',
        Email: 'ann@example.com',
        PaymentMethod: 'iDEAL',
        ShippingCostsInclVat: 4.95,
        CurrencyCode: 'EUR',
        OrderDate: '2016-11-15T14:26:08+00:00',
        ChannelCustomerReference: 'C-9',
        BillingAddress: { ...address, Original: 'Main 1, Amsterdam' },
        ShippingAddress: address,
        ExtraData: { campaign: 'autumn' },
        Lines: [
          { ChannelProductReference: 'bol-TEE-M', Quantity: 3, UnitPriceInclVat: 19.99, FeeFixed: 0, FeeRate: 0 },
          { ChannelProductReference: 'bol-MUG', Quantity: 2, UnitPriceInclVat: 8.5 }
        ]
      }
    }),
    returns: { kind: 'ApiResponse' }
  },
  {
    op: 'orderGetNew',
    from: 'OrderApi.php → CollectionOfMerchantOrderResponse.php, MerchantOrderResponse.php, MerchantOrderLineResponse.php',
    role: 'merchant',
    call: () => ({ method: 'GET', path: '/orders/new' }),
    returns: { kind: 'Collection', of: 'MerchantOrderResponse' },
    then: (body, w) => {
      const order = body.Content[0]
      assert.deepEqual(
        order.Lines.map((l: any) => [l.MerchantProductReference, l.Quantity]),
        [
          ['TEE-M', 3],
          ['MUG', 2]
        ]
      )
      w.orderId = order.Id
    }
  },
  {
    op: 'orderAcknowledge',
    from: 'OrderApi.php; OrderAcknowledgement.php (no lines) → ApiResponse.php',
    role: 'merchant',
    call: (w) => ({ method: 'POST', path: '/orders/acknowledge', body: { MerchantOrderReference: 'SO-1', OrderId: w.orderId } }),
    returns: { kind: 'ApiResponse' }
  },
  {
    op: 'shipmentCreate',
    from: 'ShipmentApi.php; MerchantShipmentRequest.php, MerchantShipmentLineRequest.php → ApiResponse.php',
    role: 'merchant',
    call: () => ({
      method: 'POST',
      path: '/shipments',
      body: {
        MerchantReference: 'SH-1',
        MerchantOrderReference: 'SO-1',
        TrackTraceNo: '3S123',
        TrackTraceUrl: 'https://track.example/3S123',
        Method: 'PostNL',
        Lines: [{ MerchantProductReference: 'TEE-M', Quantity: 2 }]
      }
    }),
    returns: { kind: 'ApiResponse' }
  },
  {
    op: 'shipmentIndex',
    from: 'ShipmentApi.php (createdSince) → CollectionOfChannelShipmentResponse.php, ChannelShipmentResponse.php',
    role: 'channel',
    call: () => ({ method: 'GET', path: '/shipments', query: SINCE }),
    returns: { kind: 'Collection', of: 'ChannelShipmentResponse' },
    then: (body) =>
      assert.deepEqual(
        body.Content[0].Lines.map((l: any) => [l.ChannelProductReference, l.Quantity]),
        [['bol-TEE-M', 2]]
      )
  },
  {
    op: 'backOrderCreate',
    from: 'BackOrderApi.php; BackOrder.php, BackOrderLine.php → ApiResponse.php',
    role: 'merchant',
    // The acknowledgement named no lines: line 1 is "SO-1-1", line 2 "SO-1-2"; a line may also be named by its product.
    call: () => ({
      method: 'POST',
      path: '/backorders',
      body: {
        MerchantBackorderReference: 'BO-1',
        MerchantOrderReference: 'SO-1',
        Lines: [
          { MerchantOrderLineReference: 'SO-1-1', Quantity: 1 },
          { MerchantOrderLineReference: 'MUG', Quantity: 1 }
        ]
      }
    }),
    returns: { kind: 'ApiResponse' }
  },
  {
    op: 'backOrderGet',
    from: 'BackOrderApi.php → SingleOfBackOrder.php',
    role: 'merchant',
    call: () => ({ method: 'GET', path: '/backorders/BO-1' }),
    returns: { kind: 'Single', of: 'BackOrder' },
    // Each line answers with the reference it was named by.
    then: (body) =>
      assert.deepEqual(
        body.Content.Lines.map((l: any) => [l.MerchantOrderLineReference, l.MerchantProductReference, l.Quantity]),
        [
          ['SO-1-1', 'TEE-M', 1],
          ['MUG', 'MUG', 1]
        ]
      )
  },
  {
    op: 'backOrderIndex',
    from: 'BackOrderApi.php (createdSince) → CollectionOfBackOrder.php',
    role: 'merchant',
    call: () => ({ method: 'GET', path: '/backorders', query: SINCE }),
    returns: { kind: 'Collection', of: 'BackOrder' }
  },
  {
    op: 'cancellationCreate',
    from: 'CancellationApi.php; MerchantCancellationRequest.php, MerchantCancellationLineRequest.php → ApiResponse.php',
    role: 'merchant',
    call: () => ({
      method: 'POST',
      path: '/cancellations',
      body: {
        MerchantReference: 'CA-1',
        MerchantOrderReference: 'SO-1',
        Reason: 'broken in stock',
        Lines: [{ MerchantProductReference: 'MUG', Quantity: 1 }]
      }
    }),
    returns: { kind: 'ApiResponse' }
  },
  {
    op: 'cancellationIndex',
    from: 'CancellationApi.php (createdSince) → CollectionOfChannelCancellationResponse.php',
    role: 'channel',
    call: () => ({ method: 'GET', path: '/cancellations', query: SINCE }),
    returns: { kind: 'Collection', of: 'ChannelCancellationResponse' },
    then: (body) =>
      assert.deepEqual(
        body.Content[0].Lines.map((l: any) => [l.ChannelProductReference, l.Quantity]),
        [['bol-MUG', 1]]
      )
  },
  {
    op: 'returnCreate_0',
    from: 'ReturnApi.php (POST /v2/returns/merchant); MerchantReturnRequest.php, MerchantReturnLineRequest.php → ApiResponse.php',
    role: 'merchant',
    call: () => ({
      method: 'POST',
      path: '/returns/merchant',
      body: {
        MerchantReference: 'RE-1',
        MerchantOrderReference: 'SO-1',
        Reason: 'PRODUCT_DEFECT',
        CustomerComment: 'seam',
        RefundInclVat: 19.99,
        Lines: [{ MerchantProductReference: 'TEE-M', Quantity: 1 }]
      }
    }),
    returns: { kind: 'ApiResponse' }
  },
  {
    op: 'returnCreate',
    from: 'ReturnApi.php (POST /v2/returns/channel); ChannelReturnRequest.php, ChannelReturnLineRequest.php → ApiResponse.php',
    role: 'channel',
    call: () => ({
      method: 'POST',
      path: '/returns/channel',
      body: {
        ChannelOrderReference: 'BOL-1',
        ChannelReference: 'BOL-R-1',
        Reason: 'PRODUCT_UNSATISFACTORY',
        Lines: [{ ChannelProductReference: 'bol-TEE-M', Quantity: 1 }]
      }
    }),
    returns: { kind: 'ApiResponse' }
  },
  {
    op: 'returnGetChannelReturns',
    from: 'ReturnApi.php (GET /v2/returns/merchant, createdSince) → CollectionOfMerchantReturnResponse.php',
    role: 'merchant',
    call: () => ({ method: 'GET', path: '/returns/merchant', query: SINCE }),
    returns: { kind: 'Collection', of: 'MerchantReturnResponse' },
    then: (body) =>
      assert.deepEqual(
        body.Content.map((r: any) => [r.Reason, r.Lines[0].MerchantProductReference]),
        [
          ['PRODUCT_DEFECT', 'TEE-M'],
          ['PRODUCT_UNSATISFACTORY', 'TEE-M']
        ]
      )
  },
  {
    op: 'returnGetMerchantReturns',
    from: 'ReturnApi.php (GET /v2/returns/channel, createdSince) → CollectionOfChannelReturnResponse.php',
    role: 'channel',
    call: () => ({ method: 'GET', path: '/returns/channel', query: SINCE }),
    returns: { kind: 'Collection', of: 'ChannelReturnResponse' },
    // ChannelReference is required: the channel's own, or the merchant's for a return the merchant declared.
    then: (body) =>
      assert.deepEqual(
        body.Content.map((r: any) => [r.ChannelReference, r.Lines[0].ChannelProductReference]),
        [
          ['RE-1', 'bol-TEE-M'],
          ['BOL-R-1', 'bol-TEE-M']
        ]
      )
  },
  {
    op: 'productDelete',
    from: 'ProductApi.php → ApiResponse.php',
    role: 'merchant',
    call: () => ({ method: 'DELETE', path: '/products/MUG' }),
    returns: { kind: 'ApiResponse' },
    then: async (_body, w) => {
      // The removal reaches the channel as a list of its references (ChannelProductChangesResponse.ToBeRemoved: string[]).
      const changes = await callAsClient(w.m.app, w.ck, { method: 'GET', path: '/products/data' })
      assert.deepEqual(clientProblems(changes, { kind: 'Single', of: 'ChannelProductChangesResponse' }), [])
      assert.deepEqual(changes.json.Content.ToBeRemoved, ['bol-MUG'])
    }
  }
]

test('the PHP client of November 2016: every operation, with the default MARKETPLACE_COMPAT (g2)', async (t) => {
  const m = await startMarketplace()
  const w: World = { m, mk: await m.key('ACME', 'merchant'), ck: await m.key('ACME', 'channel', 'bol'), ids: {} }
  assert.equal(ROWS.length, new Set(ROWS.map((r) => r.op)).size)
  for (const row of ROWS) {
    await t.test(`${row.op} (${row.from})`, async () => {
      const response = await callAsClient(m.app, row.role === 'merchant' ? w.mk : w.ck, row.call(w))
      assert.deepEqual(clientProblems(response, row.returns), [])
      await row.then?.(response.json, w)
    })
  }
  // The acknowledgement without lines gave each line the reference `<order>-<n>`; the quantities add up.
  const order = await m.call(w.mk, 'GET', '/orders/SO-1')
  assert.deepEqual(
    order.json.Content.Lines.map((l: any) => [l.MerchantReference, l.ChannelReference, l.ShippedQuantity, l.BackorderQuantity]),
    [
      ['SO-1-1', 'bol-TEE-M', 2, 1],
      ['SO-1-2', 'bol-MUG', 0, 1]
    ]
  )
})

test('MARKETPLACE_COMPAT=g1 (or its old name seed) keeps the G1 shapes: only the reads of those differ from the 2016 models', async () => {
  for (const compat of ['g1', 'seed']) {
    const m = await startMarketplace({ MARKETPLACE_COMPAT: compat })
    const w: World = { m, mk: await m.key('ACME', 'merchant'), ck: await m.key('ACME', 'channel', 'bol'), ids: {} }
    const failing: string[] = []
    for (const row of ROWS) {
      const response = await callAsClient(m.app, row.role === 'merchant' ? w.mk : w.ck, row.call(w))
      assert.ok(response.status >= 200 && response.status < 300, `${row.op}: ${response.body}`)
      const problems = clientProblems(response, row.returns)
      try {
        await row.then?.(response.json, w)
      } catch (error) {
        problems.push(String(error))
      }
      if (problems.length > 0) failing.push(row.op)
    }
    // ProductCreationResult, ExtraData as a list and ToBeRemoved as references are the g2 shapes.
    assert.deepEqual(failing, ['productCreate', 'productGetByMerchantReference', 'productGetDataChanges', 'productDelete'], compat)

    const product = await callAsClient(m.app, w.mk, { method: 'GET', path: '/products/merchant/TEE' })
    assert.deepEqual(product.json.Content.ExtraData, { material: 'cotton' })
    const created = await callAsClient(m.app, w.mk, {
      method: 'POST',
      path: '/products',
      body: [{ MerchantReference: 'CAP', Name: 'Cap' }]
    })
    assert.equal(created.json.Content[0].MerchantProductReference, 'CAP')
    const removed = await callAsClient(m.app, w.ck, { method: 'GET', path: '/products/data' })
    assert.deepEqual(
      removed.json.Content.ToBeRemoved.map((p: any) => [p.MerchantProductReference, p.ChannelProductReference]),
      [['MUG', 'bol-MUG']]
    )

    // The acknowledgement without lines moved the order and its lines on; their quantities add up.
    const order = await m.call(w.mk, 'GET', '/orders/SO-1')
    assert.deepEqual(
      order.json.Content.Lines.map((l: any) => [
        l.ChannelReference,
        l.MerchantReference,
        l.ShippedQuantity,
        l.CancelledQuantity,
        l.BackorderQuantity,
        l.ReturnedQuantity
      ]),
      [
        ['bol-TEE-M', 'SO-1-1', 2, 0, 1, 2],
        ['bol-MUG', 'SO-1-2', 0, 1, 1, 0]
      ]
    )
    // Every open unit is backordered (1 of TEE-M, 1 of MUG after its cancellation).
    assert.equal(order.json.Content.Status, 'IN_BACKORDER')
    assert.equal(order.json.Content.BillingAddress.Original, 'Main 1, Amsterdam')
  }
})

test('2016 request shapes: conflicts, ambiguity, roles and the paths beside /v2/returns/{ref}', async () => {
  const m = await startMarketplace()
  const mk = await m.key('ACME', 'merchant')
  const ck = await m.key('ACME', 'channel', 'bol')
  const both = await callAsClient(m.app, mk, {
    method: 'POST',
    path: '/products',
    body: [{ MerchantReference: 'A', MerchantProductReference: 'B', Name: 'x' }]
  })
  assert.equal(both.status, 400, both.body)
  assert.match(both.json.Message, /differs from MerchantReference/)
  assert.equal(
    (
      await callAsClient(m.app, mk, {
        method: 'POST',
        path: '/products',
        body: [
          {
            MerchantReference: 'A',
            Name: 'a',
            ExtraData: [
              { Key: 'k', Value: '1' },
              { Key: 'k', Value: '2' }
            ]
          }
        ]
      })
    ).status,
    400
  )
  assert.equal(
    (
      await callAsClient(m.app, mk, {
        method: 'POST',
        path: '/products',
        body: [{ MerchantReference: 'A', Name: 'a', VatRateType: 'ZERO' }]
      })
    ).status,
    400
  )
  assert.equal(
    (await callAsClient(m.app, mk, { method: 'POST', path: '/products', body: [{ MerchantReference: 'A', Name: 'a', Price: 5 }] })).status,
    200
  )
  assert.equal(
    (await callAsClient(m.app, ck, { method: 'POST', path: '/products/data', body: { Created: [{ Id: 999_999, ChannelReference: 'x' }] } }))
      .status,
    404
  )

  // Two lines of one product are fine with their own ChannelReference; then a product no longer names one line.
  const lines = [
    { ChannelReference: 'L1', MerchantProductReference: 'A', Quantity: 1, UnitPriceInclVat: 5 },
    { ChannelReference: 'L2', MerchantProductReference: 'A', Quantity: 1, UnitPriceInclVat: 5 }
  ]
  const order = { ChannelReference: 'O-1', Email: 'a@example.com', CurrencyCode: 'EUR', ShippingAddress: { City: 'Utrecht' }, Lines: lines }
  assert.equal(
    (
      await callAsClient(m.app, ck, {
        method: 'POST',
        path: '/orders',
        body: { ...order, ChannelReference: 'O-0', Lines: lines.map(({ ChannelReference: _, ...l }) => l) }
      })
    ).status,
    400
  )
  assert.equal((await callAsClient(m.app, ck, { method: 'POST', path: '/orders', body: order })).status, 201)
  const id = (await m.call(mk, 'GET', '/orders/new')).json.Content[0].Id
  assert.equal(
    (await callAsClient(m.app, mk, { method: 'POST', path: '/orders/acknowledge', body: { MerchantOrderReference: 'SO-9', OrderId: id } }))
      .status,
    201
  )
  const ambiguous = await callAsClient(m.app, mk, {
    method: 'POST',
    path: '/shipments',
    body: { MerchantReference: 'S', MerchantOrderReference: 'SO-9', Lines: [{ MerchantProductReference: 'A', Quantity: 1 }] }
  })
  assert.equal(ambiguous.status, 400, ambiguous.body)
  assert.match(ambiguous.json.Message, /2 lines of product "A"/)
  const shipped = await callAsClient(m.app, mk, {
    method: 'POST',
    path: '/shipments',
    body: { MerchantReference: 'S', MerchantOrderReference: 'SO-9', Lines: [{ ChannelOrderLineReference: 'L1', Quantity: 1 }] }
  })
  assert.equal(shipped.status, 201, shipped.body)
  assert.equal(shipped.json.Content.MerchantShipmentReference, 'S')

  // Each 2016 return path takes its own role; a return may still be called "merchant".
  const ret = {
    MerchantReference: 'merchant',
    MerchantOrderReference: 'SO-9',
    Lines: [{ ChannelOrderLineReference: 'L1', Quantity: 1, ManualRefundInclVat: 4.5 }]
  }
  assert.equal((await callAsClient(m.app, ck, { method: 'POST', path: '/returns/merchant', body: ret })).status, 403)
  assert.equal((await callAsClient(m.app, mk, { method: 'POST', path: '/returns/channel', body: ret })).status, 403)
  assert.equal((await callAsClient(m.app, mk, { method: 'POST', path: '/returns/merchant', body: ret })).status, 201)
  const one = await callAsClient(m.app, mk, { method: 'GET', path: '/returns/merchant' })
  assert.equal(one.json.Content.MerchantReturnReference, 'merchant')
  assert.equal(one.json.Content.Lines[0].ManualRefundInclVat, 4.5) // the G1 return line's manual refund is kept too
  assert.equal(
    (await callAsClient(m.app, ck, { method: 'GET', path: '/returns/merchant', query: { createdSince: '2016-01-01' } })).status,
    403
  )
  assert.equal(
    (await callAsClient(m.app, ck, { method: 'GET', path: '/returns/channel', query: { createdSince: '2016-01-01' } })).json.Count,
    1
  )

  // The key may come as an `apikey` header: the only way the generated client's configuration can add it.
  const viaHeader = await m.app.inject({ method: 'GET', url: '/v2/orders/SO-9', headers: { apikey: mk } })
  assert.equal(viaHeader.statusCode, 200, viaHeader.body)
})
