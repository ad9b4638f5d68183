/**
 * The dashboard's Automation view in headless Debian Chromium over a real server: reactive input
 * that waits for a human appears under the autonomous namespace and is approved and rejected from
 * the page (the server's state changes); the nervous and evolution namespaces show their empty
 * states; a refused decision is shown where it was asked.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { chromium } from 'playwright-core'
import { dashboardDistDir } from '../../src/services/orchestrator/modules/dashboard/dashboard-page.js'
import { startCli, type RunningCli } from '../helpers/cli.js'
import { sandbox } from '../e2e/orchestrator.sandbox.js'
import { ARGS, CHROMIUM, ensureChromium, RESULTS } from './dashboard-browser.js'

test('dashboard automation: pending triggers approved and rejected from the page; nervous and evolution views', async (t) => {
  const missing = ensureChromium()
  if (missing) {
    t.skip(missing)
    return
  }
  assert.ok(fs.existsSync(path.join(dashboardDistDir(), 'index.html')), 'the dashboard must be built (scripts/run-tests.mjs builds it)')
  fs.mkdirSync(RESULTS, { recursive: true })

  const box = await sandbox({
    config: { agents: { sh: { kind: 'command', argv: ['/bin/true'] } }, autonomous: { policy: 'approval-required' } }
  })
  const server: RunningCli = await startCli(
    ['serve', 'orchestrator', '--project', box.root, '--port', '0'],
    { ...box.env, QUARTET_CONTROL_MUTATIONS: '1' },
    60_000
  )
  after(() => server.stop('SIGKILL'))
  const base = server.urls.orchestrator!.replace('localhost', '127.0.0.1')
  const token = fs.readFileSync(path.join(box.root, '.quartet', 'runtime', 'api-token'), 'utf8').trim()
  const call = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {})
    })
    return { status: response.status, json: (await response.json()) as any }
  }
  for (const description of ['rotate the logs', 'prune old branches']) {
    const accepted = await call('POST', '/api/reactive/webhook', { description, source: 'test' })
    assert.equal(accepted.status, 202, JSON.stringify(accepted.json))
  }
  const waiting = (await call('GET', '/api/autonomous/pending')).json as Array<{ triggerId: string; action: string }>
  assert.equal(waiting.length, 2)

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  after(() => browser.close())
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))

  await page.goto(`${base}/#/automation`)
  const pending = page.getByTestId('autonomous-pending').locator('li')
  await pending.nth(1).waitFor()
  assert.match(await page.getByTestId('autonomous-status').innerText(), /policy approval-required .* 2 waiting for you/)
  assert.match(await page.getByTestId('nervous-status').innerText(), /detectors: /)
  await page.getByText('No detection is pending.').waitFor()
  await page.getByText('No recorded run yet.').waitFor()
  await page.screenshot({ path: path.join(RESULTS, 'dashboard-automation-1280.png'), fullPage: true })

  const [first, second] = waiting
  await pending.filter({ hasText: first!.triggerId }).getByRole('button', { name: 'Approve' }).click()
  await page.getByTestId('autonomous-pending').locator('li').filter({ hasText: first!.triggerId }).waitFor({ state: 'detached' })
  await pending.filter({ hasText: second!.triggerId }).getByRole('button', { name: 'Reject' }).click()
  await page.getByText('No trigger waits for you.').waitFor()
  assert.deepEqual((await call('GET', '/api/autonomous/pending')).json, [])
  const backlog = (await call('GET', '/api/autonomous/backlog')).json as Array<{ title: string; status: string }>
  assert.deepEqual(backlog.map((e) => e.status).sort(), ['failed', 'pending'], 'approved: pending in the backlog; rejected: failed')
  await page.getByTestId('backlog').locator('li').nth(1).waitFor()
  assert.match(await page.getByTestId('backlog').innerText(), /· failed/)

  // A decision the server refuses (here: already decided elsewhere) is said next to its buttons.
  const third = await call('POST', '/api/reactive/webhook', { description: 'one more', source: 'test' })
  assert.equal(third.status, 202)
  const [late] = (await call('GET', '/api/autonomous/pending')).json as Array<{ triggerId: string }>
  await page.reload()
  const row = page.getByTestId('autonomous-pending').locator('li').filter({ hasText: late!.triggerId })
  await row.waitFor({ timeout: 15_000 })
  assert.equal((await call('POST', `/api/autonomous/reject/${late!.triggerId}`)).status, 200)
  await row.getByRole('button', { name: 'Approve' }).click()
  await row.getByRole('alert').waitFor()
  assert.ok((await row.getByRole('alert').innerText()).trim().length > 0)

  assert.deepEqual(errors, [])
})
