import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fuzzService } from '../../helpers/fuzz.js'
import { snapshotTables } from '../../helpers/db.js'
import { makePng, png, startFeed } from '../../helpers/feed.js'

function isFeedError(body: unknown): boolean {
  const b = body as { message?: unknown; code?: unknown; data?: unknown }
  if (typeof b !== 'object' || b === null || typeof b.message !== 'string' || typeof b.code !== 'string') return false
  if (b.data === undefined) return true
  return (
    Array.isArray(b.data) &&
    b.data.every((d: any) => typeof d.msg === 'string' && typeof d.param === 'string' && typeof d.location === 'string')
  )
}

test('fuzz: random and malformed requests to every route never get a 5xx, always the error shape, never a partial write', async () => {
  const f = await startFeed()
  const { token } = await f.user('fuzz@example.com', 'Fuzz')
  // Something to find, edit and delete.
  for (let i = 0; i < 3; i++) await f.form(token, 'POST', '/feed/post', { title: `Seed post ${i}`, content: 'Seed content' }, png())
  const report = await fuzzService({
    app: f.app,
    openapi: f.app.swagger(),
    database: f.database,
    tablePrefix: 'feed_',
    authHeaders: () => ({ authorization: `Bearer ${token}` }),
    isErrorBody: (body) => isFeedError(body),
    runsPerOperation: Number(process.env.FUZZ_RUNS ?? 40)
  })
  assert.ok(report.requests > 300, `only ${report.requests} requests`)
  // Every numeric path and query parameter was also sent Infinity, 1e309, NaN, … and rejected with a 4xx.
  assert.ok(report.nonFinite > 0, 'no numeric parameter was tried with non-finite numbers')
})

test('fuzz: multipart edge cases on create and update get a clear 4xx and change nothing', async () => {
  const f = await startFeed({ env: { FEED_IMAGE_MAX_BYTES: '4096' } })
  const { token } = await f.user('multi@example.com')
  const created = await f.form(token, 'POST', '/feed/post', { title: 'Target post', content: 'Target content' }, png())
  const id = created.json.post._id as string
  const b = 'xyzBOUNDARY'
  const part = (name: string, value: string, extra = '') =>
    `--${b}\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n\r\n${value}\r\n`
  const file = (name: string, filename: string, bytes: string, type = 'image/png') =>
    `--${b}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n${bytes}\r\n`
  const end = `--${b}--\r\n`
  const pngText = makePng().toString('latin1')
  const cases: [string, string | Buffer, string?][] = [
    ['no parts', end],
    ['empty body', ''],
    ['garbage', 'this is not multipart at all'],
    ['truncated header', `--${b}\r\nContent-Disposition: form-da`],
    [
      'truncated file',
      part('title', 'Hello world') +
        part('content', 'Some content') +
        `--${b}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n${pngText.slice(0, 30)}`
    ],
    ['file in the wrong field', part('title', 'Hello world') + part('content', 'Some content') + file('photo', 'a.png', pngText) + end],
    ['title as a file', file('title', 't.txt', 'Hello world', 'text/plain') + part('content', 'Some content') + end],
    ['huge field', part('title', 'x'.repeat(300 * 1024)) + part('content', 'Some content') + file('image', 'a.png', pngText) + end],
    ['huge field name', part('n'.repeat(500), 'v') + part('content', 'Some content') + file('image', 'a.png', pngText) + end],
    ['too many fields', Array.from({ length: 30 }, (_, i) => part(`f${i}`, 'v')).join('') + end],
    [
      'two files',
      part('title', 'Hello world') +
        part('content', 'Some content') +
        file('image', 'a.png', pngText) +
        file('image', 'b.png', pngText) +
        end
    ],
    [
      'oversized file',
      part('title', 'Hello world') + part('content', 'Some content') + file('image', 'a.png', pngText + 'x'.repeat(8000)) + end
    ],
    ['text file named png', part('title', 'Hello world') + part('content', 'Some content') + file('image', 'a.png', 'plain text') + end],
    ['json field', part('title', '{"a":', '\r\nContent-Type: application/json') + part('content', 'Some content') + end],
    ['proto field', part('__proto__', 'x') + part('title', 'Hello world') + end],
    ['image path of nothing', part('title', 'Hello world') + part('content', 'Some content') + part('image', '../../etc/passwd') + end],
    ['no boundary', part('title', 'Hello world'), 'multipart/form-data'],
    ['binary noise', Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 7919) % 256))]
  ]
  // The cases are 4xx for their own reason: the same form with a proper file is accepted.
  const good = await f.app.inject({
    method: 'POST',
    url: '/feed/post',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${b}` },
    payload: Buffer.from(part('title', 'Hello world') + part('content', 'Some content') + file('image', 'a.png', pngText) + end, 'latin1')
  })
  assert.equal(good.statusCode, 201, good.body)
  await f.call(token, 'DELETE', `/feed/post/${good.json().post._id}`)
  for (const [method, url] of [
    ['POST', '/feed/post'],
    ['PUT', `/feed/post/${id}`]
  ] as const) {
    for (const [name, payload, contentType] of cases) {
      const before = await snapshotTables(f.database, 'feed_')
      const response = await f.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType ?? `multipart/form-data; boundary=${b}` },
        payload: typeof payload === 'string' ? Buffer.from(payload, 'latin1') : payload
      })
      const where = `${method} ${name} → ${response.statusCode} ${response.body.slice(0, 200)}`
      assert.ok(response.statusCode >= 400 && response.statusCode < 500, where)
      assert.ok(isFeedError(JSON.parse(response.body)), where)
      assert.equal(await snapshotTables(f.database, 'feed_'), before, `changed the database: ${where}`)
    }
  }
})
