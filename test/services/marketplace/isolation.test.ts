import { test } from 'node:test'
import assert from 'node:assert/strict'
import { orderBody, product, startMarketplace } from '../../helpers/marketplace.js'

test('tenant isolation: another customer and another channel see nothing of each other', async () => {
  const m = await startMarketplace()
  const acme = await m.key('ACME', 'merchant')
  const bol = await m.key('ACME', 'channel', 'bol')
  const amazon = await m.key('ACME', 'channel', 'amazon')
  const globex = await m.key('GLOBEX', 'merchant')
  const globexBol = await m.key('GLOBEX', 'channel', 'bol')

  await m.call(acme, 'POST', '/products', [product('SAME'), product('ONLY-ACME')])
  await m.call(globex, 'POST', '/products', [product('SAME', { Name: 'globex version' })])
  assert.equal((await m.call(globex, 'GET', '/products/ONLY-ACME')).status, 404)
  assert.equal((await m.call(globex, 'GET', '/products/SAME')).json.Content.Name, 'globex version')
  assert.equal((await m.call(globex, 'DELETE', '/products/ONLY-ACME')).status, 404)
  assert.equal((await m.call(acme, 'GET', '/products/ONLY-ACME')).json.Content.IsActive, true)

  // Orders: a channel orders only its customer's products.
  assert.equal((await m.call(globexBol, 'POST', '/orders', orderBody('X-1', [['ONLY-ACME', 1, 1]]))).status, 404)
  assert.equal((await m.call(bol, 'POST', '/orders', orderBody('SHARED-NO', [['SAME', 2, 1]]))).status, 201)
  // The same channel order number may exist at another channel and another customer.
  assert.equal((await m.call(amazon, 'POST', '/orders', orderBody('SHARED-NO', [['SAME', 1, 1]]))).status, 201)
  assert.equal((await m.call(globexBol, 'POST', '/orders', orderBody('SHARED-NO', [['SAME', 1, 1]]))).status, 201)
  assert.equal((await m.call(acme, 'GET', '/orders/new')).json.TotalCount, 2)
  const globexOrders = (await m.call(globex, 'GET', '/orders/new')).json.Content
  assert.equal(globexOrders.length, 1)
  const acmeOrders = (await m.call(acme, 'GET', '/orders/new')).json.Content

  // Acknowledging another customer's order id: 404.
  const foreign = acmeOrders[0]
  const steal = await m.call(globex, 'POST', '/orders/acknowledge', {
    MerchantOrderReference: 'G1',
    OrderId: foreign.Id,
    Lines: [{ OrderLineId: foreign.Lines[0].Id, MerchantOrderLineReference: 'G1-1' }]
  })
  assert.equal(steal.status, 404)
  for (const [i, o] of acmeOrders.entries()) {
    const r = await m.call(acme, 'POST', '/orders/acknowledge', {
      MerchantOrderReference: `A${i}`,
      OrderId: o.Id,
      Lines: [{ OrderLineId: o.Lines[0].Id, MerchantOrderLineReference: `A${i}-1` }]
    })
    assert.equal(r.status, 201, r.body)
  }
  // References are per customer: GLOBEX may use A0 too.
  const g = globexOrders[0]
  assert.equal(
    (
      await m.call(globex, 'POST', '/orders/acknowledge', {
        MerchantOrderReference: 'A0',
        OrderId: g.Id,
        Lines: [{ OrderLineId: g.Lines[0].Id, MerchantOrderLineReference: 'A0-1' }]
      })
    ).status,
    201
  )
  assert.equal((await m.call(globex, 'GET', '/orders/A1')).status, 404)
  assert.equal((await m.call(acme, 'GET', '/orders/A0')).json.Content.ChannelName, 'bol')

  const shipment = {
    MerchantShipmentReference: 'S',
    MerchantOrderReference: 'A1',
    Lines: [{ MerchantOrderLineReference: 'A1-1', Quantity: 1 }]
  }
  assert.equal((await m.call(globex, 'POST', '/shipments', shipment)).status, 404)
  assert.equal((await m.call(acme, 'POST', '/shipments', shipment)).status, 201)
  assert.equal((await m.call(globex, 'GET', '/shipments/S')).status, 404)
  assert.equal((await m.call(globex, 'GET', '/shipments?createdSince=2000-01-01')).json.TotalCount, 0)
  // A channel sees only its own orders' fulfilments: A1 was placed through amazon.
  assert.equal((await m.call(amazon, 'GET', '/shipments?createdSince=2000-01-01')).json.TotalCount, 1)
  assert.equal((await m.call(bol, 'GET', '/shipments?createdSince=2000-01-01')).json.TotalCount, 0)
  assert.equal((await m.call(bol, 'GET', '/shipments/S')).status, 404)
  // A channel can return only its own orders.
  assert.equal(
    (
      await m.call(bol, 'POST', '/returns', {
        ChannelReturnReference: 'R',
        MerchantOrderReference: 'A1',
        Lines: [{ MerchantOrderLineReference: 'A1-1', Quantity: 1 }]
      })
    ).status,
    404
  )
  assert.equal(
    (
      await m.call(amazon, 'POST', '/returns', {
        ChannelReturnReference: 'R',
        MerchantOrderReference: 'A1',
        Lines: [{ MerchantOrderLineReference: 'A1-1', Quantity: 1 }]
      })
    ).status,
    201
  )

  // Product sync state is per channel.
  await m.call(bol, 'GET', '/products/data')
  assert.equal(
    (await m.call(bol, 'POST', '/products/data', { Created: [{ MerchantReference: 'SAME', ChannelReference: 'x' }] })).status,
    201
  )
  assert.equal((await m.call(amazon, 'GET', '/products/data')).json.ToBeCreatedTotalCount, 2)
  assert.equal((await m.call(bol, 'GET', '/products/data')).json.ToBeCreatedTotalCount, 1)
  // The same ChannelReference at another channel is fine; another customer's product is unknown.
  assert.equal(
    (await m.call(amazon, 'POST', '/products/data', { Created: [{ MerchantReference: 'SAME', ChannelReference: 'x' }] })).status,
    201
  )
  assert.equal(
    (await m.call(globexBol, 'POST', '/products/data', { Created: [{ MerchantReference: 'ONLY-ACME', ChannelReference: 'y' }] })).status,
    404
  )
  assert.equal((await m.call(globexBol, 'GET', '/products/data')).json.ToBeCreatedTotalCount, 1)
})
