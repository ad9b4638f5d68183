/**
 * The dashboard's index page: the built HTML, with the API token handed to loopback callers only
 * (docs/compatibility.md#dashboard-token). A page asked for by another machine, or through a Host or
 * Origin that is not this machine (a DNS-rebinding page), gets the HTML as built and asks for the token.
 */
import fs from 'node:fs'
import path from 'node:path'
import { isLoopbackAddress, isLoopbackHost } from '../../runtime/loopback.js'

/** Where `npm run build` puts the dashboard (the same from src/ through tsx and from dist/). */
export function dashboardDistDir(): string {
  return path.resolve(import.meta.dirname, '..', '..', '..', '..', '..', 'dist', 'web', 'dashboard')
}

export interface PageCaller {
  remoteAddress: string | undefined
  host: string | undefined
  origin: string | undefined
}

/** The host part of a Host header (`[::1]:3100` → `::1`, `localhost:3100` → `localhost`). */
function hostnameOf(host: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(host)
  if (bracketed) return bracketed[1]!
  return host.replace(/:\d+$/, '')
}

/** Only this machine, asking through a name of this machine, from a page of this machine (or no page). */
export function mayReceiveToken(caller: PageCaller): boolean {
  if (!isLoopbackAddress(caller.remoteAddress)) return false
  if (caller.host === undefined || !isLoopbackHost(hostnameOf(caller.host.trim()))) return false
  if (caller.origin === undefined) return true
  try {
    const origin = new URL(caller.origin)
    return origin.protocol === 'http:' && isLoopbackHost(origin.hostname)
  } catch {
    return false
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;', "'": '&#39;' }

/**
 * The token travels in a meta tag rather than an inline script, so the page's Content-Security-Policy
 * can forbid every inline script.
 */
export function injectToken(html: string, token: string): string {
  const meta = `<meta name="quartet-api-token" content="${token.replace(/[&"<>']/g, (c) => ESCAPES[c]!)}">`
  const at = html.search(/<\/head>/i)
  return at === -1 ? `${meta}${html}` : `${html.slice(0, at)}${meta}${html.slice(at)}`
}

export function readIndexHtml(distDir: string): string | null {
  try {
    return fs.readFileSync(path.join(distDir, 'index.html'), 'utf8')
  } catch {
    return null
  }
}

export const MISSING_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quartet dashboard not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<h1>The dashboard is not built</h1>
<p>This orchestrator is running, but its web dashboard bundle is missing (no <code>dist/web/dashboard/index.html</code>).</p>
<p>Build it from the Quartet checkout with <code>npm run build</code> and reload this page.
Meanwhile the API answers under <code>/api/</code> (documented at <a href="/docs">/docs</a>), and
<code>quartet dashboard</code> shows the same run in a terminal.</p>
</body></html>
`
