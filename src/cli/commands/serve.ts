import type { Command } from 'commander'
import { SERVICE_NAMES, type ServiceName } from '../../core/config/config.js'
import { createLogger } from '../../core/logger.js'
import { ServiceStartError } from '../../core/service.js'
import type { App } from '../../core/http/server.js'
import { loadService, serviceRegistry } from '../registry.js'
import { loadConfigOrExit, openMigratedDatabase } from '../runtime.js'

interface ServeOptions {
  dataDir?: string
  host?: string
  port?: string
  logLevel?: string
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(`start services (default: all). Services: ${SERVICE_NAMES.join(', ')}`)
    .argument('[services...]', 'services to start')
    .option('--data-dir <dir>', 'data directory (QUARTET_DATA_DIR)')
    .option('--host <host>', 'bind address (HOST)')
    .option('--port <port>', 'port, when exactly one service is started (PORT)')
    .option('--log-level <level>', 'fatal|error|warn|info|debug|trace|silent (LOG_LEVEL)')
    .action(async (names: string[], options: ServeOptions) => {
      await serve(names, options)
    })
}

async function serve(names: string[], options: ServeOptions): Promise<void> {
  const unknown = names.filter((n) => !(SERVICE_NAMES as readonly string[]).includes(n))
  if (unknown.length > 0) {
    process.stderr.write(`Unknown service${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Known services: ${SERVICE_NAMES.join(', ')}\n`)
    process.exit(2)
  }
  const requested = (names.length > 0 ? [...new Set(names)] : [...SERVICE_NAMES]) as ServiceName[]
  const config = loadConfigOrExit({
    QUARTET_DATA_DIR: options.dataDir,
    HOST: options.host,
    PORT: options.port,
    LOG_LEVEL: options.logLevel
  })

  const missing = requested.filter((n) => serviceRegistry[n] === null)
  for (const name of missing) process.stdout.write(`${name.padEnd(12)} not available yet\n`)
  const definitions = (await Promise.all(requested.map((n) => loadService(n)))).filter((d) => d !== null)
  if (definitions.length === 0) {
    process.stderr.write('None of the requested services is available yet.\n')
    process.exit(2)
  }

  const logger = createLogger(config.logLevel)
  const database = await openMigratedDatabase(config)
  const started: { name: string; app: App }[] = []
  let stopping = false

  async function shutdown(signal: string): Promise<void> {
    if (stopping) {
      process.stderr.write(`Second ${signal}: exiting now.\n`)
      process.exit(1)
    }
    stopping = true
    process.stdout.write(`${signal} received: draining requests and closing…\n`)
    const force = setTimeout(() => {
      process.stderr.write('Shutdown took longer than 10 s: exiting.\n')
      process.exit(1)
    }, 10_000)
    force.unref()
    await Promise.allSettled(started.map(({ app }) => app.close()))
    await database.close()
    process.stdout.write('Stopped.\n')
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  const usePortVar = definitions.length === 1 && config.singlePort !== undefined
  if (config.singlePort !== undefined && !usePortVar) {
    process.stdout.write('PORT is ignored because several services start; use <SERVICE>_PORT.\n')
  }
  process.stdout.write(`database     ${database.dialect === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `SQLite ${config.dataDir}/quartet.db`}\n`)
  async function fail(message: string): Promise<never> {
    process.stderr.write(`${message}\n`)
    await Promise.allSettled(started.map((s) => s.app.close()))
    await database.close()
    process.exit(1)
  }

  async function listen(name: string, app: App, port: number): Promise<string> {
    try {
      await app.listen({ host: config.host, port })
    } catch (error) {
      await app.close().catch(() => undefined)
      return fail(`${name}: cannot listen on ${config.host}:${port}: ${(error as Error).message}`)
    }
    started.push({ name, app })
    const address = app.server.address()
    const actualPort = typeof address === 'object' && address ? address.port : port
    return `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${actualPort}`
  }

  for (const definition of definitions) {
    let service
    try {
      service = await definition.create({ config, database, logger, clock: () => new Date() })
    } catch (error) {
      if (error instanceof ServiceStartError) return fail(`${definition.name}: ${error.message}`)
      throw error
    }
    const port = usePortVar ? (config.singlePort as number) : config.ports[definition.name]
    const base = await listen(definition.name, service.app, port)
    process.stdout.write(`${definition.name.padEnd(12)} ${base}  docs ${base}/docs\n`)
    for (const note of service.notes) process.stdout.write(`${''.padEnd(12)} ${note}\n`)
    for (const companion of service.companions ?? []) {
      const companionBase = await listen(companion.name, await companion.create(base), companion.port)
      process.stdout.write(`${companion.name.padEnd(12)} ${companionBase}\n`)
    }
  }
  process.stdout.write('ready\n')
}
