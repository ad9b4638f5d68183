import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'node:test'
import type { App } from '../../src/core/http/server.js'
import { startFeed } from '../helpers/feed.js'
import { startMarketplace } from '../helpers/marketplace.js'
import { startOrchestrator } from '../helpers/orchestrator.js'
import { startTrips } from '../helpers/trips.js'

/** What each service's docs page must tell a newcomer about getting a credential. */
const CREDENTIAL: Record<string, RegExp> = {
  trips: /quartet token trips --email/,
  feed: /PUT \/auth\/signup.*POST \/auth\/login/s,
  marketplace: /quartet keys create --customer \w+ --role merchant/,
  orchestrator: /\.quartet\/runtime\/api-token/
}

function directive(csp: string, name: string): string[] {
  const found = csp
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([key]) => key === name)
  assert.ok(found, `${name} in ${csp}`)
  return found.slice(1)
}

/** The texts of the <style> elements a script creates, read from the script as served (React createElement calls). */
function createdStyles(script: string): string[] {
  return [...script.matchAll(/createElement\("style",\s*null,\s*("(?:[^"\\]|\\.)*")\)/g)].map((m) => JSON.parse(m[1] as string) as string)
}

async function checkDocsPage(name: string, app: App): Promise<void> {
  const page = await app.inject({ method: 'GET', url: '/docs' })
  assert.equal(page.statusCode, 200)
  assert.match(page.headers['content-type'] as string, /^text\/html/)
  assert.match(page.body, new RegExp(`<title>Quartet ${name} — API docs</title>`))
  // Every script and stylesheet of the page is a file of its own: nothing inline needs a hash or 'unsafe-inline'.
  assert.doesNotMatch(page.body, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline <script>')
  assert.doesNotMatch(page.body, /<style\b/, 'no inline <style>')
  assert.doesNotMatch(page.body, /\son\w+=/, 'no inline event handler')
  const csp = page.headers['content-security-policy'] as string
  assert.ok(csp, 'the page has a CSP')
  assert.deepEqual(directive(csp, 'script-src'), ["'self'"])
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|upgrade-insecure-requests/)

  // The <style> elements Swagger UI's own scripts create are allowed by hash, so the browser logs no violation.
  const styleSources = directive(csp, 'style-src')
  let styles = 0
  for (const script of page.body.matchAll(/<script src="([^"]+)"/g)) {
    const url = new URL(script[1] as string, 'http://localhost/docs/').pathname
    const response = await app.inject({ method: 'GET', url })
    assert.equal(response.statusCode, 200, url)
    assert.equal(response.headers['content-security-policy'], csp, `${url} carries the same CSP`)
    for (const text of createdStyles(response.body)) {
      styles++
      assert.ok(
        styleSources.includes(`'sha256-${createHash('sha256').update(text).digest('base64')}'`),
        `${url}: hash of ${text} in ${csp}`
      )
    }
  }
  assert.ok(styles > 0, 'the served scripts create at least one <style> (else this check checks nothing)')

  // The initializer replaces the Swagger logo with Quartet's name and loads the document the page describes.
  const initializer = await app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' })
  assert.equal(initializer.statusCode, 200)
  const logo = /img\.src = 'data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)'/.exec(initializer.body)
  assert.ok(logo, 'the initializer sets a logo')
  const svg = Buffer.from(logo[1] as string, 'base64').toString('utf8')
  assert.match(svg, new RegExp(`^<svg[^>]*>.*Quartet .*>${name}</tspan>`, 's'))
  assert.doesNotMatch(svg, /swagger|fastify/i)

  const document = await app.inject({ method: 'GET', url: '/docs/json' })
  const info = (document.json() as { info: { title: string; description: string } }).info
  assert.equal(info.title, `Quartet ${name}`)
  assert.match(info.description, /\*\*Getting a credential\.\*\*/)
  assert.match(info.description, CREDENTIAL[name] as RegExp)
}

test('trips: /docs names Quartet, says how to get a token, and its CSP allows exactly what the page uses', async () => {
  await checkDocsPage('trips', (await startTrips()).app)
})

test('feed: /docs names Quartet, says how to get a token, and its CSP allows exactly what the page uses', async () => {
  await checkDocsPage('feed', (await startFeed()).app)
})

test('marketplace: /docs names Quartet, says how to get a key, and its CSP allows exactly what the page uses', async () => {
  await checkDocsPage('marketplace', (await startMarketplace()).app)
})

test('orchestrator: /docs names Quartet, says where the token is, and its CSP allows exactly what the page uses', async () => {
  await checkDocsPage('orchestrator', (await startOrchestrator()).app)
})
