import { Server, type ServerOptions } from 'socket.io'
import { createAdapter } from '@socket.io/redis-adapter'
import { Redis } from 'ioredis'
import type { FastifyBaseLogger } from 'fastify'
import type { App } from '../../core/http/server.js'
import type { FeedTokens } from './auth.js'
import type { FeedEvents, PostsEvent } from './render.js'

export type OriginCheck = (origin: string | undefined, callback: (error: Error | null, allow: boolean) => void) => void

export interface RealtimeOptions {
  origin: OriginCheck
  tokens: FeedTokens
  logger: FastifyBaseLogger
  /** With a Redis URL, broadcasts reach the clients of every instance. */
  redisUrl?: string | undefined
  /** Channel prefix of the Redis adapter (default "quartet-feed"); tests use their own. */
  redisKey?: string | undefined
}

/**
 * Socket.IO v4 on the app's own HTTP server. Clients only listen: the server emits one event,
 * "posts". A token in the handshake (auth.token or the Authorization header) is verified and a
 * bad one refused; anonymous listeners are allowed, as in the original.
 */
export async function attachRealtime(app: App, options: RealtimeOptions): Promise<FeedEvents & { io: Server }> {
  const serverOptions: Partial<ServerOptions> = {
    cors: { origin: options.origin, methods: ['GET', 'POST'], allowedHeaders: ['Authorization', 'Content-Type'] },
    serveClient: false,
    maxHttpBufferSize: 64 * 1024,
    connectTimeout: 10_000
  }
  let pub: Redis | undefined
  let sub: Redis | undefined
  if (options.redisUrl) {
    pub = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 })
    sub = pub.duplicate()
    for (const client of [pub, sub]) client.on('error', (error: Error) => options.logger.warn({ err: error }, 'feed: redis connection problem'))
    await Promise.all([pub.connect(), sub.connect()])
    serverOptions.adapter = createAdapter(pub, sub, { key: options.redisKey ?? 'quartet-feed' })
  }
  const io = new Server(app.server, serverOptions)

  io.use((socket, next) => {
    const auth = socket.handshake.auth as Record<string, unknown> | undefined
    const header = socket.handshake.headers.authorization
    const raw = typeof auth?.token === 'string' ? auth.token : typeof header === 'string' ? header : undefined
    if (!raw) return next()
    const token = raw.replace(/^Bearer\s+/i, '').trim()
    options.tokens.verify(token).then((caller) => {
      socket.data.userId = caller.userId
      next()
    }, () => next(new Error('Not authenticated: the token is invalid or has expired.')))
  })
  io.on('connection', (socket) => {
    options.logger.debug({ id: socket.id, userId: socket.data.userId as number | undefined }, 'feed: client connected')
  })

  // Stop the sockets before the HTTP server closes (it waits for open connections).
  app.addHook('preClose', (done) => {
    io.local.disconnectSockets(true)
    done()
  })
  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => { void io.close(() => resolve()) })
    await Promise.allSettled([pub?.quit(), sub?.quit()])
  })

  return {
    io,
    publish(event: PostsEvent) {
      io.emit('posts', event)
    }
  }
}
