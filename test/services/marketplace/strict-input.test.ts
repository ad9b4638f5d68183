import { test } from 'node:test'
import assert from 'node:assert/strict'
import { MARKETPLACE_PREFIX } from '../../../src/services/marketplace/app.js'
import { isErrorEnvelope, orderBody, product, startMarketplace } from '../../helpers/marketplace.js'
import { EMPTY_JSON_VARIANTS, injectEmptyJson, NON_FINITE } from '../../helpers/strict-input.js'

test('marketplace: JSON values of the wrong type are 400 (its validation status) and nothing is written', async (t) => {
  const m = await startMarketplace()
  const mk = await m.key('ACME', 'merchant')
  const ck = await m.key('ACME', 'channel', 'bol')
  assert.equal((await m.call(mk, 'POST', '/products', [product('MUG', { Price: 7.5 }), product('CUP')])).status, 200)

  await t.test('"Quantity": true on an order line is 400 and creates no order', async () => {
    const body = orderBody('BOL-1', [['MUG', 1, 7.5]])
    body.Lines[0] = { ...body.Lines[0]!, Quantity: true as unknown as number }
    const res = await m.call(ck, 'POST', '/orders', body)
    assert.equal(res.status, 400, res.body)
    assert.ok(isErrorEnvelope(res.json, 400), res.body)
    assert.ok(res.json.ValidationErrors['Lines[0].Quantity'], res.body)
    const asString = orderBody('BOL-2', [['MUG', 1, 7.5]], { ShippingCostsInclVat: '4.95' })
    assert.equal((await m.call(ck, 'POST', '/orders', asString)).status, 400)
    assert.equal((await m.call(mk, 'GET', '/orders/new')).json.TotalCount, 0)
  })

  await t.test('a body `true` (or a number, or an object) is not acknowledged as offer "true"', async () => {
    await m.call(ck, 'GET', '/products/data')
    assert.equal(
      (await m.call(ck, 'POST', '/products/data', { Created: [{ MerchantReference: 'MUG', ChannelReference: 'true' }] })).status,
      201
    )
    assert.equal((await m.call(mk, 'POST', '/products', [product('MUG', { Price: 8 })])).status, 200)
    assert.equal((await m.call(ck, 'GET', '/products/offers')).json.TotalCount, 1)
    for (const body of [true, 5, { ChannelReference: 'true' }]) {
      const res = await m.call(ck, 'POST', '/products/offers', body)
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.body}`)
      assert.ok(isErrorEnvelope(res.json, 400), res.body)
    }
    assert.equal((await m.call(ck, 'GET', '/products/offers')).json.TotalCount, 1, 'the offer is still pending')
    assert.equal((await m.call(ck, 'POST', '/products/offers', ['true'])).status, 201)
    assert.equal((await m.call(ck, 'GET', '/products/offers')).json.TotalCount, 0)
  })

  await t.test('non-finite page and pageSize are 400 envelopes on every list route', async () => {
    const lists: [string, string, string[]][] = [
      [mk, '/orders/new', ['page']],
      [mk, '/backorders', ['page']],
      [mk, '/cancellations', ['page']],
      [mk, '/shipments', ['page']],
      [mk, '/returns', ['page']],
      [ck, '/products/data', ['page', 'pageSize']],
      [ck, '/products/offers', ['page', 'pageSize']]
    ]
    for (const value of NON_FINITE) {
      for (const [key, path, names] of lists) {
        for (const name of names) {
          const res = await m.call(key, 'GET', `${path}?${name}=${encodeURIComponent(value)}`)
          assert.equal(res.status, 400, `${path}?${name}=${value}: ${res.body}`)
          assert.ok(isErrorEnvelope(res.json, 400), res.body)
        }
      }
    }
  })

  await t.test('DELETE and GET /v2/products/{ref} with a JSON content type and an empty body (the ChannelEngine PHP client)', async () => {
    for (const [i, variant] of [...EMPTY_JSON_VARIANTS, { 'content-type': 'text/json' }].entries()) {
      const reference = `EMPTY-${i}`
      assert.equal((await m.call(mk, 'POST', '/products', [product(reference)])).status, 200)
      const url = `${MARKETPLACE_PREFIX}/products/${reference}?apikey=${encodeURIComponent(mk)}`
      const read = await injectEmptyJson(m.app, 'GET', url, variant)
      assert.equal(read.status, 200, read.body)
      assert.equal(read.json.Content.IsActive, true)
      const removed = await injectEmptyJson(m.app, 'DELETE', url, variant)
      assert.equal(removed.status, 200, `${JSON.stringify(variant)}: ${removed.body}`)
      assert.equal((await m.call(mk, 'GET', `/products/${reference}`)).json.Content.IsActive, false)
    }
  })
})

test('marketplace: a URL that is not valid percent-encoding is a 400 that does not echo the API key', async () => {
  const m = await startMarketplace()
  const mk = await m.key('ACME', 'merchant')
  const res = await m.call(mk, 'GET', '/products/%E0%A4%A')
  assert.equal(res.status, 400, res.body)
  assert.ok(isErrorEnvelope(res.json, 400), res.body)
  assert.ok(!res.body.includes(mk), res.body)
  assert.match(res.json.Message, /\/v2\/products\/%E0%A4%A\?apikey=\[redacted\]/)
})

test('marketplace: a known path with another method is 405 with Allow in the envelope; an unknown one 404', async () => {
  const m = await startMarketplace()
  const mk = await m.key('ACME', 'merchant')
  const wrong = await m.app.inject({ method: 'PUT', url: `${MARKETPLACE_PREFIX}/orders/new?apikey=${encodeURIComponent(mk)}` })
  assert.equal(wrong.statusCode, 405, wrong.body)
  assert.ok(isErrorEnvelope(wrong.json(), 405), wrong.body)
  assert.equal(wrong.headers.allow, 'GET, HEAD')
  assert.ok(!wrong.body.includes(mk), wrong.body)
  const unknown = await m.app.inject({ method: 'PUT', url: `${MARKETPLACE_PREFIX}/no-such-thing?apikey=${encodeURIComponent(mk)}` })
  assert.equal(unknown.statusCode, 404, unknown.body)
  assert.equal(unknown.headers.allow, undefined)
})
