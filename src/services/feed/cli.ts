import type { Command } from 'commander'
import type { CliRuntime } from '../../core/service.js'
import { feedConfig } from './config.js'

export const DEFAULT_FEED_API = 'http://127.0.0.1:3300'

/** `quartet feed client` (the web client), `quartet feed token` (a login token) and `quartet feed watch` (live events as JSON lines). */
export function feedCommands(program: Command, runtime: CliRuntime): void {
  const feed = program.command('feed').description('feed tools')

  feed
    .command('client')
    .description('serve the feed web client (build it first with npm run build)')
    .option('--port <port>', 'port (FEED_CLIENT_PORT, default 3000)')
    .option('--host <host>', 'bind address (HOST)')
    .option('--api <url>', `feed API base URL (default ${DEFAULT_FEED_API})`)
    .action(async (options: { port?: string; host?: string; api?: string }) => {
      const config = runtime.loadConfig({ FEED_CLIENT_PORT: options.port, HOST: options.host }, [feedConfig])
      const clientPort = (config.services.feed as ReturnType<typeof feedConfig.resolve>).clientPort
      const api = options.api ?? DEFAULT_FEED_API
      if (!/^https?:\/\/[^\s]+$/.test(api)) {
        process.stderr.write(`--api must be an http(s) URL, got ${JSON.stringify(api)}\n`)
        process.exit(2)
      }
      const { buildFeedClientServer, feedClientBuilt, feedClientDistDir } = await import('./client-server.js')
      if (!feedClientBuilt()) {
        process.stderr.write(`The feed web client is not built (${feedClientDistDir()} is missing).\nBuild it with: npm run build\n`)
        process.exit(1)
      }
      const app = await buildFeedClientServer({ apiUrl: api, logger: runtime.createLogger(config.logLevel) })
      try {
        await app.listen({ host: config.host, port: clientPort })
      } catch (error) {
        process.stderr.write(`feed client: cannot listen on ${config.host}:${clientPort}: ${(error as Error).message}\n`)
        process.exit(1)
      }
      const address = app.server.address()
      const port = typeof address === 'object' && address ? address.port : clientPort
      process.stdout.write(
        `feed-client  http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}  (API ${api})\nready\n`
      )
      const stop = () => {
        void app.close().then(() => process.exit(0))
      }
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
    })

  feed
    .command('token')
    .description('sign up (when the account does not exist yet) and log in: prints a login token')
    .option('--api <url>', 'feed API base URL', DEFAULT_FEED_API)
    .option('--email <email>', 'account e-mail', 'you@example.com')
    .option('--name <name>', 'name for a new account', 'You')
    .option('--password <password>', 'password (at least 5 characters)', 'secret1')
    .action(async (options: { api: string; email: string; name: string; password: string }) => {
      const { feedToken } = await import('./token-command.js')
      try {
        const token = await feedToken(options, (line) => process.stderr.write(`${line}\n`))
        process.stdout.write(`${token}\n`)
      } catch (error) {
        process.stderr.write(`${(error as Error).message}\n`)
        process.exitCode = 1
      }
    })

  feed
    .command('watch')
    .description('print live "posts" events (create/update/delete) as JSON lines')
    .option('--api <url>', 'feed API base URL', DEFAULT_FEED_API)
    .option('--token <jwt>', 'a login token (from POST /auth/login; needed unless the server sets FEED_SOCKET_ANONYMOUS=1)')
    .action(async (options: { api: string; token?: string }) => {
      const { io } = await import('socket.io-client')
      const socket = io(options.api, { transports: ['websocket'], ...(options.token ? { auth: { token: options.token } } : {}) })
      socket.on('connect', () => process.stderr.write(`connected to ${options.api}; waiting for posts events (Ctrl-C to stop)\n`))
      socket.on('connect_error', (error: Error) => {
        process.stderr.write(`cannot connect to ${options.api}: ${error.message}\n`)
        // Inactive after an error means the server refused the handshake (no retry would help).
        if (!socket.active) process.exit(1)
      })
      socket.on('disconnect', (reason: string) => process.stderr.write(`disconnected: ${reason}\n`))
      socket.on('posts', (event: unknown) => {
        process.stdout.write(`${JSON.stringify(event)}\n`)
      })
      const stop = () => {
        socket.close()
        process.exit(0)
      }
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
    })
}
