import { test } from 'node:test'
import assert from 'node:assert/strict'
import { orderBody, product, startMarketplace } from '../../helpers/marketplace.js'

test('20 parallel shipments of one line never ship more than ordered; parallel acknowledges have one winner', async () => {
  const m = await startMarketplace()
  const mk = await m.key('ACME', 'merchant')
  const ck = await m.key('ACME', 'channel', 'bol')
  await m.call(mk, 'POST', '/products', product('P'))
  const order = (await m.call(ck, 'POST', '/orders', orderBody('C-1', [['P', 10, 5]]))).json.Content

  const acks = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      m.call(mk, 'POST', '/orders/acknowledge', {
        MerchantOrderReference: `M-${i}`,
        OrderId: order.Id,
        Lines: [{ OrderLineId: order.Lines[0].Id, MerchantOrderLineReference: `M-${i}-1` }]
      })
    )
  )
  const winners = acks.filter((r) => r.status === 201)
  assert.equal(winners.length, 1, acks.map((r) => r.status).join(','))
  assert.ok(acks.every((r) => r.status === 201 || r.status === 409))
  const reference = winners[0]?.json.Content.MerchantReference as string

  const shipments = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      m.call(mk, 'POST', '/shipments', {
        MerchantShipmentReference: `S-${i}`,
        MerchantOrderReference: reference,
        Lines: [{ MerchantOrderLineReference: `${reference}-1`, Quantity: 1 }]
      })
    )
  )
  const shipped = shipments.filter((r) => r.status === 201).length
  assert.equal(shipped, 10, shipments.map((r) => r.status).join(','))
  assert.ok(shipments.every((r) => r.status === 201 || r.status === 400 || r.status === 409))
  const after = (await m.call(mk, 'GET', `/orders/${reference}`)).json.Content
  assert.equal(after.Lines[0].ShippedQuantity, 10)
  assert.equal(after.Status, 'SHIPPED')
  const rows: { quantity: number }[] = await m.database.db.selectFrom('mp_fulfilment_lines').select('quantity').execute()
  assert.equal(
    rows.reduce((sum, r) => sum + Number(r.quantity), 0),
    10,
    'rejected shipments left no rows'
  )

  // Mixed parallel cancellations and shipments on a fresh order respect the open quantity together.
  const second = (await m.call(ck, 'POST', '/orders', orderBody('C-2', [['P', 7, 5]]))).json.Content
  assert.equal(
    (
      await m.call(mk, 'POST', '/orders/acknowledge', {
        MerchantOrderReference: 'X',
        OrderId: second.Id,
        Lines: [{ OrderLineId: second.Lines[0].Id, MerchantOrderLineReference: 'X-1' }]
      })
    ).status,
    201
  )
  await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      m.call(
        mk,
        'POST',
        i % 2 ? '/shipments' : '/cancellations',
        i % 2
          ? {
              MerchantShipmentReference: `XS-${i}`,
              MerchantOrderReference: 'X',
              Lines: [{ MerchantOrderLineReference: 'X-1', Quantity: 1 }]
            }
          : { MerchantReference: `XC-${i}`, MerchantOrderReference: 'X', Lines: [{ MerchantOrderLineReference: 'X-1', Quantity: 1 }] }
      )
    )
  )
  const line = (await m.call(mk, 'GET', '/orders/X')).json.Content.Lines[0]
  assert.equal(line.ShippedQuantity + line.CancelledQuantity, 7)
  assert.equal(line.OpenQuantity, 0)
})

test(
  'parallel upserts of one MerchantProductReference all succeed as one product; ' + 'parallel identical data acknowledgements all succeed',
  async () => {
    const m = await startMarketplace()
    const mk = await m.key('ACME', 'merchant')
    const ck = await m.key('ACME', 'channel', 'bol')
    const upserts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => m.call(mk, 'POST', '/products', [product('P', { Stock: i }), product(`Q${i % 2}`)]))
    )
    assert.ok(
      upserts.every((r) => r.status === 200),
      upserts.map((r) => `${r.status} ${r.body}`).find((s) => !s.startsWith('200'))
    )
    const rows = await m.database.db.selectFrom('mp_products').select('merchant_reference').execute()
    assert.deepEqual(rows.map((r: { merchant_reference: string }) => r.merchant_reference).sort(), ['P', 'Q0', 'Q1'])

    await m.call(ck, 'GET', '/products/data')
    const acks = await Promise.all(
      Array.from({ length: 20 }, () =>
        m.call(ck, 'POST', '/products/data', { Created: [{ MerchantReference: 'P', ChannelReference: 'bol-p' }] })
      )
    )
    assert.ok(
      acks.every((r) => r.status === 201),
      acks.map((r) => `${r.status} ${r.body}`).find((s) => !s.startsWith('201'))
    )
    // Different references for one product: one wins, the rest are 409 and wrote nothing.
    const rival = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        m.call(ck, 'POST', '/products/data', { Created: [{ MerchantReference: 'Q0', ChannelReference: `bol-q${i}` }] })
      )
    )
    assert.deepEqual(rival.map((r) => r.status).sort(), [201, ...Array(9).fill(409)])
    assert.equal((await m.database.db.selectFrom('mp_product_channel_state').select('id').execute()).length, 2)
  }
)
