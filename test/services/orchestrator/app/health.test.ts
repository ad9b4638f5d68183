import assert from 'node:assert/strict'
import { test } from 'node:test'
import { startOrchestrator } from '../../../helpers/orchestrator.js'

test('health: loopback callers get version, pid, project and a terminal capability that matches the served routes', async () => {
  const orch = await startOrchestrator()
  for (const url of ['/health', '/api/health', '/api/v1/health']) {
    const health = await orch.call('GET', url, undefined, { authorization: '' })
    assert.equal(health.status, 200, url)
    assert.deepEqual(Object.keys(health.json).sort(), ['pid', 'projectRoot', 'status', 'terminalEnabled', 'timestamp', 'version'], url)
    assert.equal(health.json.pid, process.pid)
    assert.equal(health.json.projectRoot, orch.project.root)
    // A client that sees terminalEnabled: true goes on to the terminal routes; they must exist.
    const terminal = await orch.call('GET', '/api/terminal/token')
    assert.equal(health.json.terminalEnabled, terminal.status !== 404, `${url}: terminal routes answer ${terminal.status}`)
  }
  const remote = await orch.app.inject({ url: '/api/health', remoteAddress: '203.0.113.9' })
  assert.deepEqual(Object.keys(remote.json()).sort(), ['status', 'timestamp'])
})

test('JSON answers carry the reference security headers, HSTS and X-XSS-Protection: 0 included', async () => {
  const orch = await startOrchestrator()
  for (const url of ['/health', '/api/status', '/api/no-such-route']) {
    const response = await orch.app.inject({ url, headers: { authorization: `Bearer ${orch.token}` } })
    assert.match(String(response.headers['content-type']), /^application\/json/, url)
    assert.equal(response.headers['x-content-type-options'], 'nosniff', url)
    assert.equal(response.headers['x-frame-options'], 'DENY', url)
    assert.equal(response.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'", url)
    assert.equal(response.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains', url)
    assert.equal(response.headers['x-xss-protection'], '0', url)
  }
})

test('health: 503 naming the database while it cannot be reached; the details stay with loopback callers', async () => {
  const orch = await startOrchestrator()
  assert.equal((await orch.call('GET', '/health', undefined, { authorization: '' })).status, 200)
  const close = orch.database.close.bind(orch.database)
  await close()
  orch.database.close = async () => {}
  for (const url of ['/health', '/api/health']) {
    const down = await orch.call('GET', url, undefined, { authorization: '' })
    assert.equal(down.status, 503, `${url}: ${down.body}`)
    assert.equal(down.headers['retry-after'], '5')
    assert.equal(down.json.status, 'unavailable')
    assert.deepEqual(down.json.down, ['database'])
    assert.match(down.json.reason, /^database unreachable: \S/)
    assert.equal(down.json.pid, process.pid)
  }
  const remote = await orch.app.inject({ url: '/health', remoteAddress: '203.0.113.9' })
  assert.equal(remote.statusCode, 503)
  assert.deepEqual(Object.keys(remote.json()).sort(), ['down', 'reason', 'status', 'timestamp'])
  assert.equal(remote.json().reason, 'database unreachable')
})

test('health: a caller with Origin: null (a file page, or any sandboxed iframe) can read health but gets no process details', async () => {
  const orch = await startOrchestrator()
  const response = await orch.app.inject({ url: '/health', headers: { origin: 'null' } })
  assert.equal(response.statusCode, 200)
  assert.equal(response.headers['access-control-allow-origin'], 'null')
  assert.deepEqual(Object.keys(response.json()).sort(), ['status', 'timestamp'])
  const local = await orch.app.inject({ url: '/health', headers: { origin: 'http://127.0.0.1:5173' } })
  assert.equal(local.json().pid, process.pid)
})
