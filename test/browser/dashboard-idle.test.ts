import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { chromium, type Request } from 'playwright-core'
import { startCli } from '../helpers/cli.js'
import { sandbox } from '../e2e/orchestrator.sandbox.js'
import { ARGS, CHROMIUM, ensureChromium, RESULTS, shownSeqs } from './dashboard-browser.js'

const IDLE_WINDOW_MS = 60_000

test('idle, the dashboard makes at most 3 requests a minute; phone width; keyboard; a foreign name must type the token', async (t) => {
  const missing = ensureChromium()
  if (missing) {
    t.skip(missing)
    return
  }
  fs.mkdirSync(RESULTS, { recursive: true })
  const box = await sandbox({ directives: '## Task 1: quick\nWrite.\n\n## Task 2: second\nWrite more.\n' })
  assert.equal((await box.cli('plan')).code, 0)
  const server = await startCli(['serve', 'orchestrator', '--project', box.root, '--port', '0'], box.env, 60_000)
  after(() => server.stop('SIGKILL'))
  const port = new URL(server.urls.orchestrator!).port
  const token = fs.readFileSync(path.join(box.root, '.quartet', 'runtime', 'api-token'), 'utf8').trim()

  // dash.test resolves to this machine, but the page asks through a name that is not loopback.
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, '--host-resolver-rules=MAP dash.test 127.0.0.1'] })
  after(() => browser.close())
  const errors: string[] = []
  const remote = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  remote.on('pageerror', (error) => errors.push(error.message))
  await remote.goto(`http://dash.test:${port}/`)
  assert.doesNotMatch(await remote.content(), new RegExp(token), 'no token in the page for a foreign name')
  await remote.getByLabel('API token').fill('wrong-token')
  await remote.getByRole('button', { name: 'Open dashboard' }).click()
  await remote.getByText('That token was refused.').waitFor()
  await remote.getByLabel('API token').fill(token)
  await remote.getByRole('button', { name: 'Open dashboard' }).click()
  await remote.getByRole('heading', { name: 'Needs you' }).waitFor()
  await remote.getByTestId('live-state').getByText('live').waitFor()
  await remote.close()

  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  page.on('pageerror', (error) => errors.push(error.message))
  const requests: { at: number; url: string }[] = []
  page.on('request', (request: Request) => requests.push({ at: Date.now(), url: request.url() }))
  await page.goto(`http://127.0.0.1:${port}/#/sprint`)
  await page.locator('tr[data-task="s1-2"]').waitFor()
  await page.getByTestId('live-state').getByText('live').waitFor()

  // Nothing runs: the page may ask at most 3 times in a minute.
  await new Promise((resolve) => setTimeout(resolve, 2_000))
  const from = Date.now()
  await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS))
  const idle = requests.filter((r) => r.at >= from)
  console.log(`idle requests in ${IDLE_WINDOW_MS / 1000} s: ${idle.length} (${idle.map((r) => new URL(r.url).pathname).join(', ')})`)
  assert.equal((await shownSeqs(page)).length, 0, 'no event happened in the idle minute')
  assert.ok(idle.length <= 3, `${idle.length} requests in an idle minute`)

  // Phone width: the menu scrolls sideways on its own, the page does not.
  await page.setViewportSize({ width: 390, height: 844 })
  await page.screenshot({ path: path.join(RESULTS, 'dashboard-sprint-390.png'), fullPage: true })
  await page.getByRole('link', { name: 'Needs you' }).click()
  await page.screenshot({ path: path.join(RESULTS, 'dashboard-needs-you-390.png'), fullPage: true })
  const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')
  assert.ok(Number(overflow) <= 0, `no horizontal scrolling at phone width (${String(overflow)} px)`)

  // Keyboard: Tab reaches the menu, Enter opens a view.
  for (let i = 0; i < 10 && (await page.evaluate('document.activeElement?.textContent')) !== 'Sprint'; i++) await page.keyboard.press('Tab')
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { name: /^Sprint/ }).waitFor()
  assert.deepEqual(errors, [])
})
