import type { Command } from 'commander'
import { SERVICE_NAMES, type ServiceName } from '../../core/config/config.js'
import { createLogger, logFormatOf } from '../../core/logger.js'
import { ServiceStartError } from '../../core/service.js'
import type { App } from '../../core/http/server.js'
import { createServiceContext } from '../../core/service-context.js'
import { configFragments, loadService, serviceRegistry } from '../registry.js'
import { loadConfigOrExit, openMigratedDatabase } from '../runtime.js'
import { describePortHolder } from './port-holder.js'
import { diagnostics, serveOutput, type Listener } from './serve-output.js'

interface ServeOptions {
  dataDir?: string
  host?: string
  port?: string
  logLevel?: string
  logFormat?: string
  project?: string
  terminal?: boolean
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
    .option('--log-format <format>', 'json|pretty (QUARTET_LOG_FORMAT; default: pretty on a terminal, JSON lines otherwise)')
    .option('--project <dir>', 'project directory of the orchestrator (QUARTET_PROJECT, default: the working directory)')
    .action(async (names: string[], options: ServeOptions) => {
      await serve(names, options)
    })
}

async function serve(names: string[], options: ServeOptions): Promise<void> {
  // Before the configuration is validated a misspelt format falls back to the default; the
  // configuration error then names it.
  const errors = diagnostics(logFormatOf(process.stderr, options.logFormat ?? process.env.QUARTET_LOG_FORMAT))
  const unknown = names.filter((n) => !(SERVICE_NAMES as readonly string[]).includes(n))
  if (unknown.length > 0) {
    errors.error(`Unknown service${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Known services: ${SERVICE_NAMES.join(', ')}`, {
      unknown,
      known: SERVICE_NAMES
    })
    process.exit(2)
  }
  const requested = (names.length > 0 ? [...new Set(names)] : [...SERVICE_NAMES]) as ServiceName[]
  // Only the services being started are configured (and held to their production rules).
  const config = loadConfigOrExit(
    {
      QUARTET_DATA_DIR: options.dataDir,
      HOST: options.host,
      PORT: options.port,
      LOG_LEVEL: options.logLevel,
      QUARTET_LOG_FORMAT: options.logFormat,
      QUARTET_PROJECT: options.project
    },
    configFragments(requested),
    (error) => errors.error(error.message, { problems: error.problems })
  )

  const format = logFormatOf(process.stdout, config.logFormat)
  const logger = createLogger(config.logLevel, { format })
  const output = serveOutput(format, logger)
  const missing = requested.filter((n) => serviceRegistry[n] === null)
  for (const name of missing) output.notAvailable(name)
  const definitions = (await Promise.all(requested.map((n) => loadService(n)))).filter((d) => d !== null)
  if (definitions.length === 0) {
    errors.error('None of the requested services is available yet.')
    process.exit(2)
  }

  const database = await openMigratedDatabase(config)
  const started: { name: string; app: App }[] = []
  const stoppers: ((deadline: number) => Promise<void>)[] = []
  const releases: (() => Promise<void>)[] = []
  let stopping = false

  async function shutdown(signal: string): Promise<void> {
    if (stopping) {
      errors.error(`Second ${signal}: exiting now.`, { signal })
      process.exit(1)
    }
    stopping = true
    output.stopping(signal)
    const deadline = Date.now() + config.shutdownMs
    // A little past the deadline: the services' own shutdown hooks get the whole grace period.
    const force = setTimeout(() => {
      errors.error(`Shutdown took longer than ${config.shutdownMs / 1000} s: exiting.`)
      process.exit(1)
    }, config.shutdownMs + 1000)
    force.unref()
    await Promise.allSettled(stoppers.map((stop) => stop(deadline)))
    await Promise.allSettled(started.map(({ app }) => app.close()))
    await Promise.allSettled(releases.map((release) => release()))
    await database.close()
    output.stopped()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  const usePortVar = definitions.length === 1 && config.singlePort !== undefined
  if (config.singlePort !== undefined && !usePortVar) {
    output.portIgnored()
  }
  output.database(database.dialect === 'postgres' ? { dialect: 'postgres' } : { dialect: 'sqlite', file: `${config.dataDir}/quartet.db` })
  async function fail(message: string, fields: Record<string, unknown>): Promise<never> {
    errors.error(message, fields)
    await Promise.allSettled(started.map((s) => s.app.close()))
    await Promise.allSettled(releases.map((release) => release()))
    await database.close()
    process.exit(1)
  }

  async function listen(name: string, app: App, port: number): Promise<Listener> {
    try {
      await app.listen({ host: config.host, port })
    } catch (error) {
      await app.close().catch(() => undefined)
      const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
      const holder = inUse ? `: ${await describePortHolder(config.host, port)}` : ''
      return fail(`${name}: cannot listen on ${config.host}:${port}: ${(error as Error).message}${holder}`, {
        service: name,
        host: config.host,
        port
      })
    }
    started.push({ name, app })
    const address = app.server.address()
    const actualPort = typeof address === 'object' && address ? address.port : port
    return { name, url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${actualPort}`, port: actualPort }
  }

  const listeners: Listener[] = []
  for (const definition of definitions) {
    let service
    try {
      const { context, release } = await createServiceContext(definition, { config, database, logger })
      releases.push(release)
      service = await definition.create(context)
    } catch (error) {
      if (error instanceof ServiceStartError) return fail(`${definition.name}: ${error.message}`, { service: definition.name })
      throw error
    }
    const port = usePortVar ? (config.singlePort as number) : (config.services[definition.name] as { port: number }).port
    const listener = await listen(definition.name, service.app, port)
    if (service.shutdown) stoppers.push(service.shutdown.bind(service))
    const withDocs = { ...listener, docs: `${listener.url}/docs` }
    listeners.push(withDocs)
    output.listening(withDocs, service.notes)
    for (const companion of service.companions ?? []) {
      const companionListener = await listen(companion.name, await companion.create(listener.url), companion.port)
      listeners.push(companionListener)
      output.listening(companionListener)
    }
  }
  output.ready(listeners)
}
