import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isolatedDatabaseEnv, runCli, startCli } from '../helpers/cli.js'

test('quartet keys + quartet serve marketplace: an order walks through HTTP', { timeout: 60_000 }, async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-mp-e2e-'))
  // On PostgreSQL the CLI gets a schema of its own (search_path in the URL).
  const database = await isolatedDatabaseEnv('mp')
  const databaseUrl = database.DATABASE_URL
  const env = { QUARTET_DATA_DIR: dataDir, MARKETPLACE_PORT: '0', DATABASE_URL: databaseUrl }
  const merchantRun = await runCli(['keys', 'create', '--customer', 'ACME', '--role', 'merchant'], env)
  assert.equal(merchantRun.code, 0, merchantRun.stderr)
  const merchant = merchantRun.stdout.trim()
  assert.match(merchant, /^mk_[A-Za-z0-9_-]{20,}$/)
  assert.match(merchantRun.stderr, /cannot be shown again/)
  const channel = (await runCli(['keys', 'create', '--customer', 'ACME', '--role', 'channel', '--channel', 'bol'], env)).stdout.trim()
  assert.match(channel, /^ck_/)
  const bad = await runCli(['keys', 'create', '--customer', 'ACME', '--role', 'channel'], env)
  assert.equal(bad.code, 2)
  assert.match(bad.stderr, /--channel NAME is required/)
  const list = await runCli(['keys', 'list'], env)
  assert.equal(list.code, 0)
  assert.match(list.stdout, /merchant/)
  assert.ok(!list.stdout.includes(merchant), 'the list never prints a key')

  const server = await startCli(['serve', 'marketplace'], env)
  try {
    const base = server.urls.marketplace as string
    assert.ok(base, server.output())
    const call = async (key: string, method: string, url: string, body?: unknown) => {
      const response = await fetch(`${base}/v2${url}${url.includes('?') ? '&' : '?'}apikey=${encodeURIComponent(key)}`, {
        method,
        ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {})
      })
      return { status: response.status, json: (await response.json()) as any }
    }
    assert.equal(
      (await call(merchant, 'POST', '/products', { MerchantProductReference: 'MUG', Name: 'Mug', Price: 7.5, Stock: 3 })).status,
      200
    )
    const created = await call(channel, 'POST', '/orders', {
      ChannelReference: 'BOL-1',
      Email: 'a@example.com',
      CurrencyCode: 'EUR',
      ShippingAddress: { City: 'Utrecht', CountryIso: 'NL' },
      Lines: [{ ChannelReference: 'BOL-1-1', MerchantProductReference: 'MUG', Quantity: 2, UnitPriceInclVat: 7.5 }]
    })
    assert.equal(created.status, 201)
    const order = (await call(merchant, 'GET', '/orders/new')).json.Content[0]
    assert.equal(order.ChannelReference, 'BOL-1')
    const ack = await call(merchant, 'POST', '/orders/acknowledge', {
      MerchantOrderReference: 'SO-1',
      OrderId: order.Id,
      Lines: [{ OrderLineId: order.Lines[0].Id, MerchantOrderLineReference: 'SO-1-1' }]
    })
    assert.equal(ack.status, 201)
    const ship = await call(merchant, 'POST', '/shipments', {
      MerchantShipmentReference: 'SH-1',
      MerchantOrderReference: 'SO-1',
      Lines: [{ MerchantOrderLineReference: 'SO-1-1', Quantity: 2 }]
    })
    assert.equal(ship.status, 201)
    const final = await call(merchant, 'GET', '/orders/SO-1')
    assert.equal(final.json.Content.Status, 'SHIPPED')
    // A revoked key stops working at once, even for the running server.
    const revoke = await runCli(['keys', 'revoke', merchant.slice(0, 11)], env)
    assert.equal(revoke.code, 0, revoke.stderr)
    assert.equal((await call(merchant, 'GET', '/orders/SO-1')).status, 401)
  } finally {
    assert.equal(await server.stop(), 0)
    await database.cleanup()
  }
})
