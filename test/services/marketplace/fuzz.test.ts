import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fuzzService } from '../../helpers/fuzz.js'
import { isErrorEnvelope, orderBody, product, startMarketplace } from '../../helpers/marketplace.js'

// One database for both roles: a second test's schema drop must not race the introspection
// the fuzzer runs before and after every write (see the report about snapshotTables on PostgreSQL).
test('fuzz every route with a merchant and a channel key: no 5xx, errors in the envelope, rejected writes change nothing', async () => {
  const m = await startMarketplace()
  const mk = await m.key('ACME', 'merchant')
  const ck = await m.key('ACME', 'channel', 'bol')
  // Some real data so that valid-looking references reach deeper rules.
  await m.call(mk, 'POST', '/products', [product('1'), product('2', { Children: [product('3')] })])
  const order = (await m.call(ck, 'POST', '/orders', orderBody('1', [['1', 5, 10]]))).json.Content
  await m.call(mk, 'POST', '/orders/acknowledge', {
    MerchantOrderReference: '1',
    OrderId: order.Id,
    Lines: [{ OrderLineId: order.Lines[0].Id, MerchantOrderLineReference: '1' }]
  })
  for (const [key, seed] of [
    [mk, 7],
    [ck, 11]
  ] as const) {
    const report = await fuzzService({
      app: m.app,
      openapi: m.app.swagger(),
      database: m.database,
      tablePrefix: 'mp_',
      authHeaders: () => ({ 'x-ce-key': key }),
      isErrorBody: isErrorEnvelope,
      runsPerOperation: Number(process.env.FUZZ_RUNS ?? 30),
      seed
    })
    assert.ok(report.requests > 0)
    // Every numeric path and query parameter was also sent Infinity, 1e309, NaN, … and rejected with a 4xx.
    assert.ok(report.nonFinite > 0, 'no numeric parameter was tried with non-finite numbers')
    assert.ok(Object.keys(report.byStatus).some((s) => Number(s) >= 400 && Number(s) < 500))
  }
})
