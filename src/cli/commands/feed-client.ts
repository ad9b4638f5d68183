import type { Command } from 'commander'
import { createLogger } from '../../core/logger.js'
import { buildFeedClientServer, DEFAULT_FEED_API, feedClientBuilt, feedClientDistDir } from '../../services/feed/client-server.js'
import { loadConfigOrExit } from '../runtime.js'

interface FeedClientOptions {
  port?: string
  host?: string
  api?: string
}

/** `quartet feed-client`: serves the built web client, pointed at a feed API. */
export function registerFeedClient(program: Command): void {
  program
    .command('feed-client')
    .description('serve the feed web client (build it first with npm run build)')
    .option('--port <port>', 'port (FEED_CLIENT_PORT, default 3000)')
    .option('--host <host>', 'bind address (HOST)')
    .option('--api <url>', `feed API base URL (default ${DEFAULT_FEED_API})`)
    .action(async (options: FeedClientOptions) => {
      const config = loadConfigOrExit({ FEED_CLIENT_PORT: options.port, HOST: options.host })
      const api = options.api ?? DEFAULT_FEED_API
      if (!/^https?:\/\/[^\s]+$/.test(api)) {
        process.stderr.write(`--api must be an http(s) URL, got ${JSON.stringify(api)}\n`)
        process.exit(2)
      }
      if (!feedClientBuilt()) {
        process.stderr.write(`The feed web client is not built (${feedClientDistDir()} is missing).\nBuild it with: npm run build\n`)
        process.exit(1)
      }
      const app = await buildFeedClientServer({ apiUrl: api, logger: createLogger(config.logLevel) })
      try {
        await app.listen({ host: config.host, port: config.ports.feedClient })
      } catch (error) {
        process.stderr.write(`feed-client: cannot listen on ${config.host}:${config.ports.feedClient}: ${(error as Error).message}\n`)
        process.exit(1)
      }
      const address = app.server.address()
      const port = typeof address === 'object' && address ? address.port : config.ports.feedClient
      process.stdout.write(`feed-client  http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}  (API ${api})\nready\n`)
      const stop = () => { void app.close().then(() => process.exit(0)) }
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
    })
}
