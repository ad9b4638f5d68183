/** What the dashboard's browser tests share: Debian's Chromium (installed when missing) and page probes. */
import fs from 'node:fs'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import type { Page } from 'playwright-core'

export const CHROMIUM = '/usr/bin/chromium'
export const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run']
export const RESULTS = path.resolve(import.meta.dirname, '..', '..', 'test-results')

export function ensureChromium(): string | undefined {
  if (fs.existsSync(CHROMIUM)) return undefined
  const install = spawnSync('apt-get', ['install', '-y', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  })
  if (install.status === 0 && fs.existsSync(CHROMIUM)) return undefined
  return `no browser: ${CHROMIUM} is missing and "apt-get install -y chromium" failed`
}

/** The sequence numbers of the events the page lists. */
export function shownSeqs(page: Page): Promise<string[]> {
  return page.evaluate("[...document.querySelectorAll('[data-testid=events] li')].map((li) => li.dataset.seq)") as Promise<string[]>
}
