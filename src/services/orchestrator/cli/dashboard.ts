/**
 * `quartet dashboard [--project DIR | --url URL --token T]`: the terminal dashboard over a running
 * orchestrator's API. A TTY gets the full-screen view (dashboard/tui.ts); anything else gets plain
 * lines: one snapshot, then one line per event, until interrupted.
 */
import fs from 'node:fs'
import path from 'node:path'
import { readHandshake } from '../runtime/handshake.js'
import { apiTokenFile } from '../runtime/api-token.js'
import type { DashboardTarget } from './dashboard/client.js'
import { createDashboardData, type DashboardData } from './dashboard/data.js'
import { needsYou, progressLine, taskLine } from './dashboard/model.js'
import { CliError, EXIT_OK } from './output.js'

export interface DashboardOptions {
  project?: string
  url?: string
  token?: string
  plain?: boolean
}

/** The server to watch: --url (with --token or QUARTET_API_TOKEN), else the project's running server. */
export function resolveTarget(options: DashboardOptions, env: NodeJS.ProcessEnv = process.env): DashboardTarget {
  const envToken = env.QUARTET_API_TOKEN?.trim() || null
  if (options.url) {
    let url: URL
    try {
      url = new URL(options.url)
    } catch {
      throw new CliError(`--url ${options.url} is not a URL (e.g. http://127.0.0.1:3100).`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError('--url must be an http(s) URL.')
    return { url: url.origin, token: options.token ?? envToken }
  }
  const projectRoot = path.resolve(options.project ?? env.QUARTET_PROJECT ?? '.')
  const handshake = readHandshake(projectRoot)
  if (!handshake)
    throw new CliError(
      `No orchestrator is serving ${projectRoot}: start one with quartet serve orchestrator --project ${projectRoot}, or pass --url.`
    )
  const host = ['0.0.0.0', '::', ''].includes(handshake.host) ? '127.0.0.1' : handshake.host
  const file = handshake.tokenFile ?? apiTokenFile(projectRoot)
  let token = options.token ?? envToken
  if (!token && fs.existsSync(file)) token = fs.readFileSync(file, 'utf8').trim() || null
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${handshake.port}`, token }
}

function plainSnapshot(data: DashboardData, write: (line: string) => void): void {
  const now = Date.now()
  write(`sprint  ${data.status?.sprint.title ?? '(none)'}  ${progressLine(data.status)}`)
  for (const n of needsYou(data.status, data.tasks, data.approvals, data.merges))
    write(`needs   ${n.kind}: ${n.text}${n.action ? ` [${n.action}]` : ''}`)
  for (const t of data.tasks) write(`task    ${taskLine(t, now, 100).trimEnd()}`)
}

export async function dashboardCommand(options: DashboardOptions): Promise<number> {
  const target = resolveTarget(options)
  const tty = process.stdout.isTTY && process.stdin.isTTY && !options.plain
  if (tty) {
    // React's production build (chosen when it is first loaded): the development one renders several times slower.
    process.env.NODE_ENV ??= 'production'
    // Ink renders nothing but the last frame when CI or CONTINUOUS_INTEGRATION is set (read once, when it is
    // loaded). Standard input and output are a terminal here, so a person is watching: render live.
    delete process.env.CI
    delete process.env.CONTINUOUS_INTEGRATION
    const { runTui } = await import('./dashboard/tui.js')
    let publish: (data: DashboardData) => void = () => {}
    const source = createDashboardData(target, (data) => publish(data))
    const tui = runTui(source)
    publish = tui.publish
    await tui.instance.waitUntilExit()
    source.close()
    return EXIT_OK
  }

  const write = (line: string) => process.stdout.write(`${line}\n`)
  let finish: () => void = () => {}
  const stopped = new Promise<void>((resolve) => {
    finish = resolve
    process.once('SIGINT', resolve)
    process.once('SIGTERM', resolve)
  })
  let printedSnapshot = false
  let lastSeq = 0
  let lastLink = ''
  const statuses = new Map<string, string>()
  const source = createDashboardData(target, (data) => {
    if (data.link !== lastLink) {
      lastLink = data.link
      write(`link    ${data.link}`)
      if (data.link === 'refused') {
        write('the server refused the token (pass --token or QUARTET_API_TOKEN)')
        process.exitCode = 1
        finish()
      }
    }
    if (data.status && !printedSnapshot) {
      printedSnapshot = true
      plainSnapshot(data, write)
      for (const t of data.tasks) statuses.set(t.id, t.status)
      return
    }
    if (data.lastEvent && data.lastEvent.seq > lastSeq) {
      lastSeq = data.lastEvent.seq
      write(`event   #${data.lastEvent.seq} ${data.lastEvent.type}${data.lastEvent.taskId ? ` ${data.lastEvent.taskId}` : ''}`)
    }
    for (const t of data.tasks) {
      if (statuses.get(t.id) === t.status) continue
      statuses.set(t.id, t.status)
      write(`status  ${t.id} ${t.status}`)
    }
  })
  await stopped
  source.close()
  return process.exitCode === 1 ? 1 : EXIT_OK
}
