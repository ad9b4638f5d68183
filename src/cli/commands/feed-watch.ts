import type { Command } from 'commander'
import { io } from 'socket.io-client'
import { DEFAULT_FEED_API } from '../../services/feed/client-server.js'

interface WatchOptions {
  api: string
  token?: string
}

/** `quartet feed watch`: prints every Socket.IO "posts" event of a feed as one JSON line. */
export function registerFeedWatch(program: Command): void {
  const feed = program.command('feed').description('feed tools')
  feed
    .command('watch')
    .description('print live "posts" events (create/update/delete) as JSON lines')
    .option('--api <url>', 'feed API base URL', DEFAULT_FEED_API)
    .option('--token <jwt>', 'a login token (optional: anonymous listeners are allowed)')
    .action((options: WatchOptions) => {
      const socket = io(options.api, { transports: ['websocket'], ...(options.token ? { auth: { token: options.token } } : {}) })
      socket.on('connect', () => process.stderr.write(`connected to ${options.api}; waiting for posts events (Ctrl-C to stop)\n`))
      socket.on('connect_error', (error: Error) => process.stderr.write(`cannot connect to ${options.api}: ${error.message}\n`))
      socket.on('disconnect', (reason: string) => process.stderr.write(`disconnected: ${reason}\n`))
      socket.on('posts', (event: unknown) => { process.stdout.write(`${JSON.stringify(event)}\n`) })
      const stop = () => { socket.close(); process.exit(0) }
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
    })
}
