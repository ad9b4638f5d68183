import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { after, test } from 'node:test'
import { chromium, type Request } from 'playwright-core'
import { dashboardDistDir } from '../../src/services/orchestrator/modules/dashboard/dashboard-page.js'
import { startCli, type RunningCli } from '../helpers/cli.js'
import { eventually, sandbox, tracked } from '../e2e/orchestrator.sandbox.js'
import { ARGS, CHROMIUM, ensureChromium, RESULTS, shownSeqs } from './dashboard-browser.js'

/** GET / with the given Host header from this machine (a DNS-rebinding page reaches the server like this). */
function getWithHost(base: string, host: string): Promise<string> {
  const url = new URL(base)
  return new Promise((resolve, reject) => {
    const req = http.get({ hostname: url.hostname, port: url.port, path: '/', headers: { host } }, (res) => {
      let body = ''
      res.on('data', (d: Buffer) => (body += d.toString()))
      res.on('end', () => resolve(body))
    })
    req.on('error', reject)
  })
}

test('the web dashboard over a real sprint: live states, log, approval, restart, no token for a foreign Host', async (t) => {
  const missing = ensureChromium()
  if (missing) {
    t.skip(missing)
    return
  }
  assert.ok(fs.existsSync(path.join(dashboardDistDir(), 'index.html')), 'the dashboard must be built (scripts/run-tests.mjs builds it)')
  fs.mkdirSync(RESULTS, { recursive: true })

  const box = await sandbox({ directives: '## Task 1: quick\nWrite.\n\n## Task 2: wait\nAgent: waiter\nWaits for a flag.\n' })
  const config = JSON.parse(fs.readFileSync(path.join(box.root, '.quartet', 'config.json'), 'utf8')) as Record<string, unknown>
  fs.writeFileSync(path.join(box.root, '.quartet', 'config.json'), JSON.stringify({ ...config, approval: { api_decide: true } }, null, 2))
  assert.equal((await box.cli('plan')).code, 0)

  let server: RunningCli | undefined
  const serve = async (port: number) => {
    server = await startCli(
      ['serve', 'orchestrator', '--project', box.root, '--port', String(port)],
      { ...box.env, QUARTET_CONTROL_MUTATIONS: '1' },
      60_000
    )
    return server
  }
  after(() => server?.stop('SIGKILL'))
  const first = await serve(0)
  const base = first.urls.orchestrator!.replace('localhost', '127.0.0.1')
  const port = Number(new URL(base).port)
  const token = fs.readFileSync(path.join(box.root, '.quartet', 'runtime', 'api-token'), 'utf8').trim()
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }

  // A foreign Host (DNS rebinding) gets the page without the token.
  assert.doesNotMatch(await getWithHost(base, `evil.example:${port}`), new RegExp(token))
  assert.match(await getWithHost(base, `127.0.0.1:${port}`), /quartet-api-token/)

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  after(() => browser.close())
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  const requests: { at: number; url: string }[] = []
  page.on('request', (request: Request) => requests.push({ at: Date.now(), url: request.url() }))

  // Loopback: no token typed, the landing view is Needs you.
  await page.goto(`${base}/`)
  await page.getByRole('heading', { name: 'Needs you' }).waitFor()
  await page.getByTestId('live-state').getByText('live').waitFor()
  assert.equal(await page.getByLabel('API token').count(), 0, 'no token prompt on loopback')
  await page.evaluate('window.marker = 42')

  // Tasks appear and change state live, without a reload.
  await page.getByRole('link', { name: 'Sprint' }).click()
  await page.locator('tr[data-task="s1-1"][data-status="PENDING"]').waitFor()
  const start = await fetch(`${base}/api/start`, { method: 'POST', headers: auth, body: '{}' })
  assert.equal(start.status, 202, await start.clone().text())
  tracked.add(((await start.json()) as { pid: number }).pid)
  await page.locator('tr[data-task="s1-1"][data-status="DONE"]').waitFor({ timeout: 90_000 })
  await page.locator('tr[data-task="s1-2"][data-status="EXECUTING"]').waitFor({ timeout: 90_000 })
  // The counts are /api/status's own. The page refetches the table and the counts separately after an
  // event (coalesced over 300 ms), so the two may disagree for a moment: wait until the counts match.
  const shownCounts = async () => {
    const status = (await (await fetch(`${base}/api/status`, { headers: auth })).json()) as { progress: Record<string, number> }
    const done = await page.locator('[data-count="done"] dd').innerText()
    const total = await page.locator('[data-count="total"] dd').innerText()
    return { expected: `${status.progress.done}/${status.progress.total}`, shown: `${done}/${total}` }
  }
  let counts = { expected: '', shown: '' }
  await eventually(
    async () => {
      counts = await shownCounts()
      return counts.shown === counts.expected
    },
    10_000,
    () => `the done/total counts shown (${counts.shown}) to be /api/status's (${counts.expected})`
  )
  await page.screenshot({ path: path.join(RESULTS, 'dashboard-sprint-1280.png'), fullPage: true })

  // A task's log (live SSE) and the files it changed.
  await page.locator('tr[data-task="s1-1"] a').click()
  await page.getByTestId('log').getByText('agent for s1-1').waitFor()
  await page.getByTestId('files-changed').getByText('work-s1-1.txt').waitFor()
  await page.getByRole('heading', { name: 'Diff' }).waitFor()
  await page.screenshot({ path: path.join(RESULTS, 'dashboard-task-1280.png'), fullPage: true })

  // An agent's permission request shows in Needs you and is decided from the page.
  await page.getByRole('link', { name: 'Needs you' }).click()
  const asked = await fetch(`${base}/api/approvals/requests`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      toolName: 'Bash',
      input: { command: 'rm -rf build', token: 'sk-live-should-be-masked' },
      summary: 'Delete the build folder',
      risk: 'high'
    })
  })
  assert.equal(asked.status, 201, await asked.clone().text())
  const approvalId = ((await asked.json()) as { request: { id: string } }).request.id
  await page.getByTestId('needs-you').getByText('Delete the build folder').waitFor({ timeout: 45_000 })
  await page.getByRole('link', { name: 'Decide' }).click()
  const pending = page.locator(`li[data-approval="${approvalId}"]`)
  await pending.waitFor()
  assert.doesNotMatch(await pending.innerText(), /sk-live-should-be-masked/, 'arguments are masked')
  await pending.getByRole('button', { name: 'Allow' }).click()
  await page.getByTestId('approval-history').locator(`li[data-approval="${approvalId}"]`).getByText('approved').waitFor()
  const decided = (await (await fetch(`${base}/api/approvals/${approvalId}`, { headers: auth })).json()) as { category: string }
  assert.equal(decided.category, 'approved')

  // The server is stopped; the last task finishes meanwhile; a new server on the same port: the page reconnects.
  await page.getByRole('link', { name: 'Sprint' }).click()
  await page.getByTestId('events').waitFor()
  const seqsBefore = await shownSeqs(page)
  assert.equal(await first.stop('SIGTERM'), 0)
  await page.getByTestId('live-state').getByText('reconnecting…').waitFor({ timeout: 60_000 })
  fs.writeFileSync(path.join(box.state, 'go'), '')
  await new Promise((resolve) => setTimeout(resolve, 3_000))
  await serve(port)
  await page.locator('tr[data-task="s1-2"][data-status="DONE"]').waitFor({ timeout: 120_000 })
  await page.getByTestId('live-state').getByText('live').waitFor()
  await page.getByTestId('events').getByText('sprint_finished').waitFor({ timeout: 60_000 })
  const seqs = await shownSeqs(page)
  assert.equal(new Set(seqs).size, seqs.length, `no event shown twice: ${seqs.join(',')}`)
  for (const seq of seqsBefore) assert.ok(seqs.includes(seq), `event ${seq} still shown once after the reconnect`)
  assert.equal(await page.locator('tr[data-task]').count(), 2, 'no duplicate task rows')
  assert.equal(await page.evaluate('window.marker'), 42, 'no reload happened')
  await page.screenshot({ path: path.join(RESULTS, 'dashboard-after-restart-1280.png'), fullPage: true })

  assert.deepEqual(errors, [])
})
