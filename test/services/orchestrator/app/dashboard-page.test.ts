import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import fc from 'fast-check'
import { createServer } from '../../../../src/core/http/server.js'
import { silentLogger } from '../../../../src/core/logger.js'
import { dashboardRoutes } from '../../../../src/services/orchestrator/modules/dashboard/dashboard.routes.js'
import { injectToken, mayReceiveToken } from '../../../../src/services/orchestrator/modules/dashboard/dashboard-page.js'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

const TOKEN = 'tok-0123456789abcdef0123456789abcdef'
const INDEX = '<!doctype html><html><head><title>d</title></head><body><div id="root"></div></body></html>'

function distDir(withIndex: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-dash-'))
  after(() => fs.rmSync(dir, { recursive: true, force: true }))
  fs.mkdirSync(path.join(dir, 'assets'))
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)\n')
  fs.writeFileSync(path.join(dir, '.secret.js'), 'no\n')
  if (withIndex) fs.writeFileSync(path.join(dir, 'index.html'), INDEX)
  return dir
}

async function dashboard(withIndex = true, token: string | null = TOKEN) {
  const app = createServer({ logger: silentLogger() })
  await app.register(dashboardRoutes({ token: token ?? undefined, distDir: distDir(withIndex) }))
  await app.ready()
  after(() => app.close())
  return app
}

test('a loopback caller asking through a loopback name gets the token in the page, in a meta tag (no inline script)', async () => {
  const app = await dashboard()
  for (const host of ['127.0.0.1:3100', 'localhost:3100', '[::1]:3100', 'localhost']) {
    const page = await app.inject({ url: '/', headers: { host }, remoteAddress: '127.0.0.1' })
    assert.equal(page.statusCode, 200, host)
    assert.match(page.body, new RegExp(`<meta name="quartet-api-token" content="${TOKEN}"></head>`), host)
    assert.equal(page.headers['cache-control'], 'no-store')
    assert.match(String(page.headers['content-security-policy']), /script-src 'self';/)
    assert.doesNotMatch(page.body, /<script>/)
  }
  const same = await app.inject({
    url: '/index.html',
    headers: { host: '127.0.0.1:3100', origin: 'http://localhost:5173' },
    remoteAddress: '::1'
  })
  assert.match(same.body, /quartet-api-token/)
})

test('no token for another machine, a foreign Host (DNS rebinding) or a foreign Origin: the page asks for it', async () => {
  const app = await dashboard()
  const cases = [
    { remoteAddress: '10.1.2.3', headers: { host: '127.0.0.1:3100' } },
    { remoteAddress: '127.0.0.1', headers: { host: 'evil.example:3100' } },
    { remoteAddress: '127.0.0.1', headers: { host: '192.168.1.5:3100' } },
    { remoteAddress: '127.0.0.1', headers: { host: '127.0.0.1:3100', origin: 'http://evil.example' } },
    { remoteAddress: '127.0.0.1', headers: { host: '127.0.0.1:3100', origin: 'null' } }
  ]
  for (const c of cases) {
    const page = await app.inject({ url: '/', ...c })
    assert.equal(page.statusCode, 200)
    assert.equal(page.body, INDEX, JSON.stringify(c))
    assert.doesNotMatch(page.body, new RegExp(TOKEN))
  }
  assert.equal(mayReceiveToken({ remoteAddress: '::ffff:127.0.0.1', host: 'localhost', origin: undefined }), true)
  assert.equal(mayReceiveToken({ remoteAddress: '127.0.0.1', host: undefined, origin: undefined }), false)
})

test('the token is HTML-escaped, and with authentication off nothing is injected', async () => {
  assert.equal(injectToken('<head></head>', 'a"b<c'), '<head><meta name="quartet-api-token" content="a&quot;b&lt;c"></head>')
  const app = await dashboard(true, null)
  const page = await app.inject({ url: '/', headers: { host: '127.0.0.1' }, remoteAddress: '127.0.0.1' })
  assert.equal(page.body, INDEX)
})

test('assets are served immutable; hidden, unknown or traversing names are 404', async () => {
  const app = await dashboard()
  const asset = await app.inject({ url: '/assets/index-abc123.js' })
  assert.equal(asset.statusCode, 200)
  assert.match(String(asset.headers['content-type']), /^text\/javascript/)
  assert.match(String(asset.headers['cache-control']), /immutable/)
  for (const url of [
    '/assets/missing.js',
    '/assets/..%2f.secret.js',
    '/assets/.secret.js',
    '/assets/index-abc123.exe',
    '/assets/%2e%2e%2findex.html'
  ]) {
    assert.equal((await app.inject({ url })).statusCode, 404, url)
  }
})

test('a missing bundle answers a clear page (503) saying how to build it', async () => {
  const app = await dashboard(false)
  const page = await app.inject({ url: '/', headers: { host: '127.0.0.1' }, remoteAddress: '127.0.0.1' })
  assert.equal(page.statusCode, 503)
  assert.match(String(page.headers['content-type']), /^text\/html/)
  assert.match(page.body, /dashboard is not built/)
  assert.match(page.body, /npm run build/)
  assert.doesNotMatch(page.body, new RegExp(TOKEN))
})

test('the orchestrator serves the dashboard at / without a bearer, and /api still needs one', async () => {
  const orch = await startOrchestrator()
  const page = await orch.app.inject({ url: '/', headers: { host: '127.0.0.1:3100' }, remoteAddress: '127.0.0.1' })
  assert.ok(page.statusCode === 200 || page.statusCode === 503, `${page.statusCode}`)
  assert.match(String(page.headers['content-type']), /^text\/html/)
  if (page.statusCode === 200) assert.match(page.body, new RegExp(`content="${orch.token}"`))
  const remote = await orch.app.inject({ url: '/', headers: { host: 'example.com' }, remoteAddress: '10.0.0.9' })
  assert.doesNotMatch(remote.body, new RegExp(orch.token))
  assert.equal((await orch.app.inject({ url: '/api/status' })).statusCode, 401)
})

test('fuzz: random asset names and page headers never get a 5xx, and only the real asset is served', async () => {
  const app = await dashboard()
  await fc.assert(
    fc.asyncProperty(
      fc.string({ maxLength: 300 }),
      fc.string({ maxLength: 200 }),
      fc.string({ maxLength: 200 }),
      async (name, host, origin) => {
        // "." and ".." are path segments, not names: the URL resolves them to /assets/ or / before routing.
        fc.pre(name !== '.' && name !== '..')
        const asset = await app.inject({ url: `/assets/${encodeURIComponent(name)}` })
        assert.ok(asset.statusCode === 404 || (asset.statusCode === 200 && name === 'index-abc123.js'), `${asset.statusCode} for ${name}`)
        const page = await app.inject({ url: '/', headers: { host: host || 'x', origin }, remoteAddress: '127.0.0.1' })
        assert.ok(page.statusCode === 200 || page.statusCode === 400, `${page.statusCode} for Host ${JSON.stringify(host)}`)
      }
    ),
    { numRuns: 200 }
  )
})
