import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { chromium, type Browser, type Page } from 'playwright-core'
import { silentLogger } from '../../src/core/logger.js'
import { buildFeedClientServer, feedClientBuilt } from '../../src/services/feed/client-server.js'
import { makePng, startFeed } from '../helpers/feed.js'

const CHROMIUM = '/usr/bin/chromium'
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync'
]
const RESULTS = path.resolve(import.meta.dirname, '..', '..', 'test-results')

/** Debian's Chromium, installed once when missing; otherwise the reason it cannot be had. */
function ensureChromium(): string | undefined {
  if (fs.existsSync(CHROMIUM)) return undefined
  const install = spawnSync('apt-get', ['install', '-y', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  })
  if (install.status === 0 && fs.existsSync(CHROMIUM)) return undefined
  return (
    `no browser: ${CHROMIUM} is missing and "apt-get install -y chromium" failed ` +
    `(${install.error?.message ?? `exit ${install.status}`})`
  )
}

/**
 * Polls an expression until it is true. page.waitForFunction re-evaluates its predicate with
 * eval(), which the client's Content-Security-Policy (rightly) forbids; page.evaluate does not.
 */
async function waitUntil(page: Page, expression: string, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function login(page: Page, client: string, email: string, password: string) {
  await page.goto(`${client}/login`)
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.getByTestId('new-post').waitFor()
}

test('two browsers: one signs up, logs in and posts an image; the other sees it, its edit and its delete live', async (t) => {
  const missing = ensureChromium()
  if (missing) {
    console.log(`skipping the browser test: ${missing}`)
    t.skip(missing)
    return
  }
  assert.ok(feedClientBuilt(), 'the web client must be built (scripts/run-tests.mjs builds it before browser tests)')

  const feed = await startFeed()
  const api = await feed.listen()
  const clientApp = await buildFeedClientServer({ apiUrl: api, logger: silentLogger() })
  await clientApp.listen({ port: 0, host: '127.0.0.1' })
  after(() => clientApp.close())
  const address = clientApp.server.address()
  const client = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`

  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  after(() => browser.close())
  const alice = await (await browser.newContext({ viewport: { width: 1000, height: 800 } })).newPage()
  const bob = await (await browser.newContext({ viewport: { width: 1000, height: 800 } })).newPage()
  const pageErrors: string[] = []
  for (const page of [alice, bob]) {
    page.on('pageerror', (error) => pageErrors.push(error.message))
    page.on('dialog', (dialog) => void dialog.accept())
  }

  // Alice signs up and logs in through the UI.
  await alice.goto(`${client}/signup`)
  await alice.getByLabel('E-mail').fill('alice@example.com')
  await alice.getByLabel('Your name').fill('Alice')
  await alice.getByLabel(/^Password/).fill('secret1')
  await alice.getByRole('button', { name: 'Sign up' }).click()
  await alice.getByText('Account created. Log in to continue.').waitFor()
  await alice.getByLabel('E-mail').fill('alice@example.com')
  await alice.getByLabel('Password').fill('wrong-password')
  await alice.getByRole('button', { name: 'Log in' }).click()
  await alice.getByText('Wrong password!').waitFor()
  await alice.getByLabel('Password').fill('secret1')
  await alice.getByRole('button', { name: 'Log in' }).click()
  await alice.getByTestId('new-post').waitFor()

  // Bob has an account already and watches the feed.
  await feed.user('bob@example.com', 'Bob', 'secret2')
  await login(bob, client, 'bob@example.com', 'secret2')
  await bob.getByTestId('empty').waitFor()
  await bob.getByText('● live').waitFor()
  await bob.evaluate('window.marker = 42')

  // The API's validation messages are shown.
  await alice.getByTestId('new-post').click()
  await alice.getByLabel('Title').fill('Hi')
  await alice.getByLabel('Content').fill('Tiny')
  await alice.getByTestId('save-post').click()
  await alice.getByText('Validation failed, entered data is incorrect.').waitFor()
  await alice.getByText('title: Title must be at least 5 characters long.').waitFor()

  // Alice posts an image, previewed before upload.
  await alice.getByLabel('Title').fill('Sunrise over the ridge')
  await alice.getByLabel('Content').fill('First light on the north face, shot at 6 am.')
  await alice.getByLabel(/^Image/).setInputFiles({ name: 'sunrise.png', mimeType: 'image/png', buffer: makePng([236, 130, 40], 64) })
  await alice.getByTestId('preview').waitFor()
  await alice.getByTestId('save-post').click()
  await alice.getByTestId('post-editor').waitFor({ state: 'detached' })
  await alice.getByText('Sunrise over the ridge').waitFor()

  // Bob sees it without reloading; the image loads from the API.
  await bob.getByText('Sunrise over the ridge').waitFor({ timeout: 10_000 })
  assert.equal(await bob.evaluate('window.marker'), 42, 'no reload happened')
  await waitUntil(
    bob,
    "(() => { const img = document.querySelector('[data-testid=post] img'); " +
      'return img !== null && img.complete && img.naturalWidth === 64 })()',
    'the image loaded'
  )
  assert.match(await bob.getByTestId('post').first().innerText(), /Posted by Alice/)

  // A second post: on page 1 the newest come first, two per page.
  await alice.getByTestId('new-post').click()
  await alice.getByLabel('Title').fill('Camp at the lake')
  await alice.getByLabel('Content').fill('Tents up before the storm rolled in.')
  await alice.getByLabel(/^Image/).setInputFiles({ name: 'lake.png', mimeType: 'image/png', buffer: makePng([40, 140, 200], 64) })
  await alice.getByTestId('save-post').click()
  await bob.getByText('Camp at the lake').waitFor()
  assert.deepEqual(await bob.getByTestId('post-title').allInnerTexts(), ['Camp at the lake', 'Sunrise over the ridge'])

  // Alice edits the first post: Bob's copy is replaced in place.
  const sunrise = alice.getByTestId('post').filter({ hasText: 'Sunrise over the ridge' })
  await sunrise.getByTestId('edit-post').click()
  await alice.getByLabel('Title').fill('Sunrise over the north ridge')
  await alice.getByTestId('save-post').click()
  await bob.getByText('Sunrise over the north ridge').waitFor()
  assert.equal(await bob.evaluate('window.marker'), 42)

  fs.mkdirSync(RESULTS, { recursive: true })
  await bob.screenshot({ path: path.join(RESULTS, 'feed.png'), fullPage: true })

  // Alice deletes it: Bob's page reloads its list and the post is gone.
  await alice.getByTestId('post').filter({ hasText: 'Sunrise over the north ridge' }).getByTestId('delete-post').click()
  await bob.getByText('Sunrise over the north ridge').waitFor({ state: 'detached' })
  assert.deepEqual(await bob.getByTestId('post-title').allInnerTexts(), ['Camp at the lake'])
  assert.equal(await bob.getByTestId('page').innerText(), 'Page 1 of 1')

  // Bob can open the remaining post; he may not edit Alice's posts.
  assert.equal(await bob.getByTestId('edit-post').count(), 0)
  await bob.getByRole('button', { name: 'View' }).click()
  await bob.getByTestId('single-post').getByText('Tents up before the storm rolled in.').waitFor()
  await bob.getByText('Created by Alice').waitFor()

  // Status update round-trips.
  await alice.getByTestId('status-input').fill('Heading out tomorrow')
  await alice.getByRole('button', { name: 'Update status' }).click()
  await alice.getByText('Status updated.').waitFor()
  const { token } = await feed.user('carol@example.com')
  assert.equal((await feed.call(token, 'GET', '/auth/status')).json.status, 'I am new!')

  assert.deepEqual(pageErrors, [])
})
