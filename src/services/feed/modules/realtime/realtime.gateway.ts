import { Server, type ServerOptions, type Socket } from 'socket.io'
import { createAdapter } from '@socket.io/redis-adapter'
import type { FastifyBaseLogger } from 'fastify'
import type { App } from '../../../../core/http/server.js'
import type { RedisConnections } from '../../../../core/redis.js'
import type { FeedTokens } from '../../auth.js'
import type { FeedEvents, PostsEvent } from './realtime.events.js'
import { allowRequestByOrigin, authenticateHandshake, type OriginCheck } from './realtime.handshake.js'
import { limitClientPackets } from './realtime.limits.js'

export type { OriginCheck } from './realtime.handshake.js'

export interface RealtimeOptions {
  origin: OriginCheck
  tokens: FeedTokens
  /** Accept clients without a token (FEED_SOCKET_ANONYMOUS); a token that is sent must still be valid. */
  allowAnonymous: boolean
  logger: FastifyBaseLogger
  /** The service clock: a socket is disconnected when its token expires. */
  clock: () => Date
  /** With a Redis URL, broadcasts reach the clients of every instance. */
  redis?: RedisConnections | undefined
  /** Channel prefix of the Redis adapter (default "quartet-feed"); tests use their own. */
  redisKey?: string | undefined
}

/**
 * Socket.IO v4 on the app's own HTTP server. Clients only listen: the server emits one event,
 * "posts". A handshake from a browser origin outside the allow-list is refused on every
 * transport; a token (auth.token or the Authorization header) is required, and verified, unless
 * anonymous listeners are allowed — as the REST list requires one, so do the live posts. A
 * client that sends an event, too many messages or a too large one is disconnected.
 */
export async function attachRealtime(app: App, options: RealtimeOptions): Promise<FeedEvents & { io: Server }> {
  const serverOptions: Partial<ServerOptions> = {
    cors: { origin: options.origin, methods: ['GET', 'POST'], allowedHeaders: ['Authorization', 'Content-Type'] },
    allowRequest: allowRequestByOrigin(options.origin),
    serveClient: false,
    maxHttpBufferSize: 64 * 1024,
    connectTimeout: 10_000
  }
  if (options.redis) {
    const [pub, sub] = await Promise.all([options.redis.connect('feed-pub'), options.redis.connect('feed-sub')])
    serverOptions.adapter = createAdapter(pub, sub, { key: options.redisKey ?? 'quartet-feed' })
  }
  const io = new Server(app.server, serverOptions)
  limitClientPackets(io, options.logger)

  io.use(authenticateHandshake(options.tokens, options.allowAnonymous))
  io.on('connection', (socket) => {
    options.logger.debug({ id: socket.id, userId: socket.data.userId as number | undefined }, 'feed: client connected')
    const expiresAt = socket.data.expiresAt as number | undefined
    if (expiresAt !== undefined) disconnectAtExpiry(socket, expiresAt, options.clock)
  })

  // Stop the sockets before the HTTP server closes (it waits for open connections).
  app.addHook('preClose', (done) => {
    io.local.disconnectSockets(true)
    done()
  })
  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => {
      void io.close(() => resolve())
    })
  })

  return {
    io,
    publish(event: PostsEvent) {
      io.emit('posts', event)
    }
  }
}

// setTimeout fires at once for delays above 2^31 - 1 ms (about 24.8 days).
const LONGEST_TIMER_MS = 2 ** 31 - 1

/**
 * A token's socket lives no longer than the token: the REST API would refuse it from then on, so
 * live posts stop too. The client sees "io server disconnect" and must reconnect with a new token.
 */
function disconnectAtExpiry(socket: Socket, expiresAt: number, clock: () => Date): void {
  let timer: NodeJS.Timeout
  const arm = () => {
    const remaining = expiresAt - clock().getTime()
    if (remaining <= 0) {
      socket.disconnect(true)
      return
    }
    timer = setTimeout(arm, Math.min(remaining, LONGEST_TIMER_MS))
    timer.unref()
  }
  arm()
  socket.once('disconnect', () => clearTimeout(timer))
}
