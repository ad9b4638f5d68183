import http from 'node:http'
import autocannon from 'autocannon'
import type { BenchContext, Scenario, ServiceBench } from '../types.js'

/**
 * Marketplace hot paths. Customer BENCH: 1,000 products never acknowledged by channel "bol" (so
 * every GET /v2/products/data returns the same full page of 1,000), 100 NEW orders, and one
 * acknowledged order whose single line has a huge quantity for the shipment writes. Customer
 * SYNC: 10,000 products synchronised by a fresh channel with the GET + ack loop.
 */
async function call(ctx: BenchContext, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${ctx.baseUrl}/v2${path}`, {
    method,
    headers: { 'x-ce-key': key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {})
  })
  const json = (await response.json()) as { Success: boolean; Message: string }
  if (!json.Success) throw new Error(`${method} ${path} → ${response.status} ${json.Message}`)
  return json
}

const products = (prefix: string, count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => ({
    MerchantProductReference: `${prefix}-${String(from + i).padStart(6, '0')}`,
    Name: `Product ${from + i}`,
    Description: 'A product used by the benchmark, with a realistic description.',
    Brand: 'Quartet',
    Ean: '8712345678906',
    Price: 19.99,
    MSRP: 24.95,
    Stock: 25,
    VatRate: 21,
    CategoryTrail: 'Home > Kitchen > Mugs',
    ImageUrl: `https://example.com/img/${from + i}.jpg`
  }))

async function seedProducts(ctx: BenchContext, key: string, prefix: string, count: number): Promise<void> {
  for (let from = 0; from < count; from += 1000)
    await call(ctx, key, 'POST', '/products', products(prefix, Math.min(1000, count - from), from))
}

const order = (reference: string, productReference: string, quantity: number) => ({
  ChannelReference: reference,
  Email: 'buyer@example.com',
  CurrencyCode: 'EUR',
  ShippingCostsInclVat: 4.95,
  ShippingAddress: {
    FirstName: 'Ann',
    LastName: 'Buyer',
    StreetName: 'Main',
    HouseNr: '1',
    ZipCode: '1000AA',
    City: 'Amsterdam',
    CountryIso: 'NL'
  },
  Lines: [{ ChannelReference: `${reference}-1`, MerchantProductReference: productReference, Quantity: quantity, UnitPriceInclVat: 19.99 }]
})

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`

/** Bytes on the wire of one response (fetch would decompress it). */
function compressedSize(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        if (response.headers['content-encoding'] !== 'gzip') reject(new Error(`${url} did not answer gzip-encoded`))
        let bytes = 0
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length
        })
        response.on('end', () => resolve(bytes))
      })
      .on('error', reject)
  })
}

export const bench: ServiceBench = {
  service: 'marketplace',
  env: { MARKETPLACE_PAGE_SIZE: '100' },
  async setup(ctx): Promise<Scenario[]> {
    const key = async (...args: string[]) => (await ctx.cli(['keys', 'create', ...args])).trim().split('\n').pop() as string
    const merchant = await key('--customer', 'BENCH', '--role', 'merchant')
    const channel = await key('--customer', 'BENCH', '--role', 'channel', '--channel', 'bol')
    await seedProducts(ctx, merchant, 'B', 1000)
    for (let i = 0; i < 100; i++) await call(ctx, channel, 'POST', '/orders', order(`NEW-${i}`, 'B-000001', 2))
    const big = (await call(ctx, channel, 'POST', '/orders', order('SHIP-1', 'B-000002', 1_000_000_000))).Content
    await call(ctx, merchant, 'POST', '/orders/acknowledge', {
      MerchantOrderReference: 'SHIP-1',
      OrderId: big.Id,
      Lines: [{ OrderLineId: big.Lines[0].Id, MerchantOrderLineReference: 'SHIP-1-1' }]
    })

    const productsData = await fetch(`${ctx.baseUrl}/v2/products/data?pageSize=1000`, { headers: { 'x-ce-key': channel } })
    if (productsData.status !== 200) throw new Error(`GET /v2/products/data → ${productsData.status}`)
    const productsDataBytes = Buffer.from(await productsData.arrayBuffer())
    const productsDataReplay = await ctx.replayServer(productsDataBytes)
    const gzippedBytes = await compressedSize(`${ctx.baseUrl}/v2/products/data?pageSize=1000`, {
      'x-ce-key': channel,
      'accept-encoding': 'gzip'
    })

    return [
      {
        kind: 'http',
        name: 'GET /v2/orders/new (100 NEW orders, one page)',
        method: 'GET',
        path: '/v2/orders/new',
        headers: { 'x-ce-key': merchant },
        target: { minRatio: 0.2, maxP99Ms: 20 }
      },
      {
        kind: 'http',
        name: 'GET /v2/products/data (1,000 products in one page)',
        method: 'GET',
        path: '/v2/products/data?pageSize=1000',
        headers: { 'x-ce-key': channel },
        target: { minRatio: 0.2, maxP99Ms: 20 }
      },
      {
        // Clients that negotiate compression get the cached gzip encoding; its size depends on
        // how repetitive the catalogue is (this one is very), hence the sizes in the label.
        kind: 'http',
        name: `GET /v2/products/data, Accept-Encoding: gzip (${kb(productsDataBytes.length)} → ${kb(gzippedBytes)} on the wire)`,
        method: 'GET',
        path: '/v2/products/data?pageSize=1000',
        headers: { 'x-ce-key': channel, 'accept-encoding': 'gzip' }
      },
      {
        // The same bytes from a bare node:http server: how many such responses autocannon can
        // read on this machine at all (the ceiling of the row above).
        kind: 'http',
        name: '… the same products/data response replayed by raw node:http (ceiling)',
        method: 'GET',
        path: '/',
        url: productsDataReplay
      },
      {
        // autocannon's fixed bodies would repeat one MerchantShipmentReference (409 after the
        // first): every request here carries a fresh reference and ships 1 unit of a line
        // ordered 1,000,000,000 times, so each measured request is a real, successful shipment.
        kind: 'custom',
        name: 'POST /v2/shipments (1 unit, unique reference per request, 50 connections)',
        async run(context) {
          let n = 0
          const result = await autocannon({
            url: `${context.baseUrl}/v2/shipments`,
            connections: 50,
            duration: Number(process.env.BENCH_DURATION ?? 8),
            requests: [
              {
                method: 'POST',
                headers: { 'x-ce-key': merchant, 'content-type': 'application/json' },
                setupRequest: (request) => ({
                  ...request,
                  body: JSON.stringify({
                    MerchantShipmentReference: `BS-${++n}`,
                    MerchantOrderReference: 'SHIP-1',
                    Lines: [{ MerchantOrderLineReference: 'SHIP-1-1', Quantity: 1 }]
                  })
                })
              }
            ]
          })
          return {
            metrics: {
              'req/s': Math.round(result.requests.average),
              'p50 ms': result.latency.p50,
              'p99 ms': result.latency.p99,
              'non-2xx': result.non2xx,
              errors: result.errors + result.timeouts
            },
            pass: result.non2xx === 0 && result.errors === 0,
            targetText: 'every request a successful shipment (no non-2xx)'
          }
        }
      },
      {
        kind: 'custom',
        name: '10,000-product catalogue sync (GET + ack loop, 1,000 per page)',
        async run(context) {
          const syncMerchant = await key('--customer', 'SYNC', '--role', 'merchant')
          const syncChannel = await key('--customer', 'SYNC', '--role', 'channel', '--channel', 'fresh')
          await seedProducts(context, syncMerchant, 'S', 10_000)
          const started = performance.now()
          let rounds = 0
          let acknowledged = 0
          for (;;) {
            const changes = await call(context, syncChannel, 'GET', '/products/data?pageSize=1000')
            const created = changes.Content.ToBeCreated as { MerchantProductReference: string }[]
            if (created.length === 0) break
            await call(context, syncChannel, 'POST', '/products/data', {
              Created: created.map((p) => ({
                MerchantReference: p.MerchantProductReference,
                ChannelReference: `ch-${p.MerchantProductReference}`
              }))
            })
            acknowledged += created.length
            rounds++
          }
          const seconds = (performance.now() - started) / 1000
          return {
            metrics: { seconds: Number(seconds.toFixed(2)), products: acknowledged, rounds },
            pass: acknowledged === 10_000 && seconds < 10,
            targetText: '10,000 products synchronised in < 10 s'
          }
        }
      }
    ]
  }
}
