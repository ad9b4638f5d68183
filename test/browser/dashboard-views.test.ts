/**
 * The dashboard's later views in headless Debian Chromium over a real server: the cross-verify
 * verdict and tokens/cost of a real sprint (a command agent authors, a local HTTP provider
 * verifies), a real PTY typed into through xterm.js, a chat built-in answered from live state, and
 * the enterprise reads with the audit chain's verification.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { after, test } from 'node:test'
import { chromium } from 'playwright-core'
import { dashboardDistDir } from '../../src/services/orchestrator/modules/dashboard/dashboard-page.js'
import { startCli, type RunningCli } from '../helpers/cli.js'
import { sandbox, tracked } from '../e2e/orchestrator.sandbox.js'
import { ARGS, CHROMIUM, ensureChromium, RESULTS } from './dashboard-browser.js'

/** A local OpenAI-compatible verifier that confirms, reporting usage; `calls` counts its completions. */
async function startVerifier(): Promise<{ url: string; calls: () => number }> {
  let calls = 0
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      // Readiness probes (GET …/models) and the planner's question (a provider agent is configured) are not verifications.
      if (req.method !== 'POST' || !body.includes('read-only verifier')) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ data: [{ id: 'judge' }] }))
        return
      }
      calls++
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          model: 'judge',
          choices: [{ message: { role: 'assistant', content: 'The note was written.\nVERDICT: CONFIRMED the file is there' } }],
          usage: { prompt_tokens: 200, completion_tokens: 12 }
        })
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  after(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, calls: () => calls }
}

test('dashboard views: verdict and cost per task, terminal echo, chat built-in, enterprise with the audit chain', async (t) => {
  const missing = ensureChromium()
  if (missing) {
    t.skip(missing)
    return
  }
  assert.ok(fs.existsSync(path.join(dashboardDistDir(), 'index.html')), 'the dashboard must be built (scripts/run-tests.mjs builds it)')
  fs.mkdirSync(RESULTS, { recursive: true })

  const verifier = await startVerifier()
  const box = await sandbox({ directives: '## Task 1: quick\nWrite a note.\n' })
  const configFile = path.join(box.root, '.quartet', 'config.json')
  const config = JSON.parse(fs.readFileSync(configFile, 'utf8')) as { agents: Record<string, unknown> }
  config.agents.checker = { kind: 'openai-compatible', base_url: verifier.url, model: 'judge' }
  fs.writeFileSync(configFile, JSON.stringify({ ...config, cross_verify: { after_task: true } }, null, 2))
  assert.equal((await box.cli('plan')).code, 0)

  const server: RunningCli = await startCli(
    ['serve', 'orchestrator', '--project', box.root, '--port', '0'],
    { ...box.env, QUARTET_CONTROL_MUTATIONS: '1' },
    60_000
  )
  after(() => server.stop('SIGKILL'))
  const base = server.urls.orchestrator!.replace('localhost', '127.0.0.1')
  const token = fs.readFileSync(path.join(box.root, '.quartet', 'runtime', 'api-token'), 'utf8').trim()
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  after(() => browser.close())
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))

  // Sprint: the task runs, is cross-verified by the other provider; tokens and cost per task.
  await page.goto(`${base}/#/sprint`)
  await page.locator('tr[data-task="s1-1"][data-status="PENDING"]').waitFor()
  const start = await fetch(`${base}/api/start`, { method: 'POST', headers: auth, body: '{}' })
  assert.equal(start.status, 202, await start.clone().text())
  tracked.add(((await start.json()) as { pid: number }).pid)
  const row = page.locator('tr[data-task="s1-1"][data-status="DONE"]')
  await row.locator('[data-verdict="CONFIRMED"]').waitFor({ timeout: 90_000 })
  assert.equal(verifier.calls(), 1)
  // A command agent reports no usage: its tokens and cost are "unknown", never 0 or $0.
  assert.equal(await row.locator('[data-col="cost"]').innerText(), 'unknown')
  assert.equal(await row.locator('[data-col="tokens"]').innerText(), 'unknown')
  await page.screenshot({ path: path.join(RESULTS, 'dashboard-sprint-xverify-1280.png'), fullPage: true })
  await row.locator('a').click()
  const verdict = page.getByTestId('task-xverify')
  await verdict.waitFor()
  const verdictText = await verdict.innerText()
  assert.match(verdictText, /CONFIRMED/)
  assert.match(verdictText, /claim closed/)
  assert.match(verdictText, /the file is there/)
  assert.match(verdictText, /cross-verify-verdict:sha256:[0-9a-f]{64}/)
  assert.equal(await page.getByTestId('task-usage').innerText(), 'tokens unknown · cost unknown')

  // Terminal: a real shell; a typed command's output comes back through the socket into xterm.js.
  await page.getByRole('link', { name: 'Terminal' }).click()
  await page.getByRole('button', { name: 'New shell' }).click()
  await page.getByTestId('terminal-note').getByText('attached').waitFor({ timeout: 30_000 })
  await page.locator('.xterm-helper-textarea').focus()
  await page.keyboard.type('echo quartet-$((6*7))')
  await page.keyboard.press('Enter')
  await page.locator('.xterm-rows').getByText('quartet-42', { exact: true }).waitFor({ timeout: 30_000 })
  const sessions = page.getByTestId('terminal-sessions').locator('li[data-session]')
  assert.equal(await sessions.count(), 1)
  await page.screenshot({ path: path.join(RESULTS, 'dashboard-terminal-1280.png'), fullPage: true })
  await sessions.getByRole('button', { name: 'Close' }).click()
  await page.getByText('No session.').waitFor({ timeout: 30_000 })

  // Chat: a built-in answered from live state, streamed.
  await page.getByRole('link', { name: 'Chat' }).click()
  await page.getByLabel('Message').fill('status')
  await page.getByRole('button', { name: 'Send' }).click()
  const answer = page.locator('[data-testid=chat-log] li[data-who="quartet"][data-state="done"]')
  await answer.waitFor({ timeout: 30_000 })
  assert.match(await answer.innerText(), /Sprint status: .*s1/)

  // Enterprise: roles, and the audit chain verified intact (the reads above were audited).
  await page.getByRole('link', { name: 'Enterprise' }).click()
  await page.getByTestId('roles').locator('li[data-role="admin"]').waitFor()
  await page.locator('[data-testid="audit-chain"][data-ok="true"]').waitFor()
  assert.match(await page.getByTestId('audit-chain').innerText(), /Intact: \d+ records verified/)
  await page.getByTestId('audit').locator('tr[data-action]').first().waitFor()
  await page.screenshot({ path: path.join(RESULTS, 'dashboard-enterprise-1280.png'), fullPage: true })

  assert.deepEqual(errors, [])
})
