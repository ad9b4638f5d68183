/**
 * tsx bench/dashboard.ts [all|tui|web] [rounds=3]
 *
 * The dashboards' numbers: the web bundle's gzipped size (dist/web/dashboard, run npm run build
 * first); first contentful paint and the time until the Sprint view shows 500 tasks in headless
 * Chromium, against a real `quartet serve orchestrator` over a project with a 500-task plan; and
 * the terminal dashboard's frame time with 50 tasks (Ink's own render metrics, 80×24).
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PassThrough, Writable } from 'node:stream'
import zlib from 'node:zlib'
import { chromium } from 'playwright-core'
import { dashboardDistDir } from '../src/services/orchestrator/modules/dashboard/dashboard-page.js'
import type { DashboardData, DashboardSource } from '../src/services/orchestrator/cli/dashboard/data.js'
import type { TaskRow } from '../src/services/orchestrator/cli/dashboard/model.js'
import { startCli } from '../test/helpers/cli.js'
import { reportRows, type ScriptRow } from './harness.js'

const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium'

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

function bundleSize(): { files: number; rawKb: number; gzipKb: number } {
  const assets = path.join(dashboardDistDir(), 'assets')
  let raw = 0
  let gzip = 0
  const files = fs.readdirSync(assets)
  for (const file of files) {
    const body = fs.readFileSync(path.join(assets, file))
    raw += body.length
    gzip += zlib.gzipSync(body, { level: 9 }).length
  }
  const html = fs.readFileSync(path.join(dashboardDistDir(), 'index.html'))
  return { files: files.length + 1, rawKb: (raw + html.length) / 1024, gzipKb: (gzip + zlib.gzipSync(html).length) / 1024 }
}

async function browserTimes(tasks: number, rounds: number) {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-bench-dash-')))
  const root = path.join(base, 'project')
  fs.mkdirSync(path.join(root, '.quartet'), { recursive: true })
  const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' })
  git('init', '-q', '-b', 'main')
  fs.writeFileSync(path.join(root, 'README.md'), '# bench\n')
  git('-c', 'user.email=b@example.com', '-c', 'user.name=B', 'commit', '-q', '--allow-empty', '-m', 'initial')
  fs.writeFileSync(
    path.join(root, '.quartet', 'config.json'),
    JSON.stringify({ agents: { noop: { kind: 'command', argv: ['/bin/true'] } }, default_agent: 'noop' })
  )
  const directives = Array.from({ length: tasks }, (_, i) => `## Task ${i + 1}: task number ${i + 1}\nDo thing ${i + 1}.\n`).join('\n')
  fs.writeFileSync(path.join(root, 'DIRECTIVES.md'), directives)
  const env = { QUARTET_DATA_DIR: path.join(base, 'data'), LOG_LEVEL: 'warn' }
  const cli = path.resolve(import.meta.dirname, '..', 'src', 'cli', 'main.ts')
  const plan = spawnSync(process.execPath, ['--import', 'tsx', cli, 'plan', '--project', root], {
    env: { ...process.env, ...env },
    encoding: 'utf8'
  })
  if (plan.status !== 0) throw new Error(`plan failed: ${plan.stderr}`)
  const server = await startCli(['serve', 'orchestrator', '--project', root, '--port', '0'], env, 60_000)
  const token = fs.readFileSync(path.join(root, '.quartet', 'runtime', 'api-token'), 'utf8').trim()
  const apiMs: number[] = []
  for (let i = 0; i < 3; i++) {
    const started = performance.now()
    const answer = await fetch(`${server.urls.orchestrator!}/api/tasks`, { headers: { authorization: `Bearer ${token}` } })
    if (((await answer.json()) as unknown[]).length !== tasks) throw new Error('the plan does not hold every task')
    apiMs.push(performance.now() - started)
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] })
  const fcp: number[] = []
  const shown: number[] = []
  try {
    for (let round = 0; round < rounds; round++) {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
      await page.goto(`${server.urls.orchestrator!}/#/sprint`)
      for (;;) {
        const at = (await page.evaluate(`document.querySelectorAll('tr[data-task]').length >= ${tasks} ? performance.now() : 0`)) as number
        if (at > 0) {
          shown.push(at)
          break
        }
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      fcp.push((await page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1")) as number)
      await page.close()
    }
  } finally {
    await browser.close()
    await server.stop('SIGTERM')
    fs.rmSync(base, { recursive: true, force: true })
  }
  return { fcpMs: quantile(fcp, 0.5), shownMs: quantile(shown, 0.5), shownMaxMs: Math.max(...shown), apiTasksMs: quantile(apiMs, 0.5) }
}

async function tuiFrames(tasks: number, frames: number) {
  // As `quartet dashboard` runs it: React's production build (loaded after NODE_ENV is set).
  process.env.NODE_ENV = 'production'
  const { render } = await import('ink')
  const { createElement } = await import('react')
  const { Dashboard } = await import('../src/services/orchestrator/cli/dashboard/tui.js')
  const stdout = Object.assign(
    new Writable({
      write(_chunk, _encoding, done) {
        done()
      }
    }),
    { columns: 80, rows: 24, isTTY: true }
  ) as unknown as NodeJS.WriteStream
  // A terminal's input (Ink puts it in raw mode), so the keys handler mounts as it does under a TTY.
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode() {
      return stdin
    },
    ref() {
      return stdin
    },
    unref() {
      return stdin
    }
  }) as unknown as NodeJS.ReadStream
  const now = Date.now()
  const rows = (tick: number): TaskRow[] =>
    Array.from({ length: tasks }, (_, i) => ({
      id: `s1-${i + 1}`,
      title: `task number ${i + 1} with a title long enough to be cut`,
      status: (i + tick) % 3 === 0 ? 'DONE' : (i + tick) % 3 === 1 ? 'EXECUTING' : 'PENDING',
      assignedAgent: 'codex',
      branch: `quartet/s1-${i + 1}`,
      attempts: 1,
      reason: null,
      startedAt: new Date(now - i * 1000).toISOString(),
      finishedAt: null,
      filesChanged: []
    }))
  const data = (tick: number): DashboardData => ({
    status: {
      lifecycle: 'ACTIVE',
      recoveryCommand: null,
      sprint: { id: 's1', title: 'bench', status: 'RUNNING' },
      progress: { done: tick, active: 8, pending: tasks - tick - 8, noGo: 0, blocked: 0, cancelled: 0, orphaned: 0, total: tasks },
      agents: [],
      alerts: []
    },
    tasks: rows(tick),
    approvals: [],
    merges: [],
    link: 'open',
    error: null,
    lastEvent: null
  })
  const source = { data: data(0), followLog: () => ({ close() {} }), decide: async () => '' } as unknown as DashboardSource
  let publish: (next: DashboardData) => void = () => {}
  const times: number[] = []
  const instance = render(
    createElement(Dashboard, {
      source,
      initial: data(0),
      subscribe: (listener) => {
        publish = listener
        return () => {}
      }
    }),
    { stdout, stdin, patchConsole: false, exitOnCtrlC: false, maxFps: 1000, onRender: (m) => times.push(m.renderTime) }
  )
  // One update at a time: each publish is rendered before the next (no frames coalesced).
  for (let tick = 1; tick <= frames; tick++) {
    const before = times.length
    publish(data(tick))
    const deadline = Date.now() + 2000
    while (times.length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1))
  }
  instance.unmount()
  return { frames: times.length, medianMs: quantile(times, 0.5), p95Ms: quantile(times, 0.95), maxMs: Math.max(...times) }
}

const which = process.argv[2] ?? 'all'
const rounds = Number(process.argv[3] ?? 3)
const rows: ScriptRow[] = []
const bundle = bundleSize()
console.log(`bundle: ${bundle.files} files, ${bundle.rawKb.toFixed(1)} KB raw, ${bundle.gzipKb.toFixed(1)} KB gzipped (target < 300 KB)`)
rows.push({
  service: 'orchestrator',
  name: 'web dashboard bundle (`dist/web/dashboard`: HTML, JS, CSS), gzip -9',
  result: { metrics: { 'raw KB': bundle.rawKb, 'gzipped KB': bundle.gzipKb }, targetText: '< 300 KB gzipped', pass: bundle.gzipKb < 300 }
})
const tui = which === 'web' ? null : await tuiFrames(50, 100)
if (tui) {
  console.log(
    `tui 50 tasks 80x24: ${tui.frames} frames, median ${tui.medianMs.toFixed(2)} ms, ` +
      `p95 ${tui.p95Ms.toFixed(2)} ms, max ${tui.maxMs.toFixed(2)} ms`
  )
  rows.push({
    service: 'orchestrator',
    name: "terminal dashboard, 50 tasks at 80×24, one update per frame (Ink's render metrics)",
    result: {
      metrics: { frames: tui.frames, 'median ms': tui.medianMs, 'p95 ms': tui.p95Ms, 'max ms': tui.maxMs },
      targetText: '< 50 ms per frame (p95)',
      pass: tui.p95Ms < 50
    }
  })
}
const webName = `web dashboard in headless Chromium, real \`quartet serve orchestrator\`, 500 planned tasks, Sprint view (${rounds} rounds)`
if (which !== 'tui' && !fs.existsSync(CHROMIUM)) {
  console.log(`chromium: skipped (no browser at ${CHROMIUM}; set BENCH_CHROMIUM)`)
  rows.push({ service: 'orchestrator', name: webName, result: { metrics: { skipped: `no browser at ${CHROMIUM}` }, targetText: '< 1 s' } })
}
const web = which === 'tui' || !fs.existsSync(CHROMIUM) ? null : await browserTimes(500, rounds)
if (web) {
  console.log(
    `chromium: FCP median ${web.fcpMs.toFixed(0)} ms; ` +
      `500 tasks shown median ${web.shownMs.toFixed(0)} ms (max ${web.shownMaxMs.toFixed(0)} ms); ` +
      `GET /api/tasks alone median ${web.apiTasksMs.toFixed(0)} ms`
  )
  rows.push({
    service: 'orchestrator',
    name: webName,
    result: {
      metrics: {
        'first contentful paint median ms': web.fcpMs,
        '500 tasks shown median ms': web.shownMs,
        'max ms': web.shownMaxMs,
        '`GET /api/tasks` alone median ms': web.apiTasksMs
      },
      targetText: '500 tasks shown < 1 s',
      pass: web.shownMs < 1000
    }
  })
}
reportRows(rows)
process.exit(0)
