import { after } from 'node:test'
import { randomBytes } from 'node:crypto'
import { makePng } from './images.js'
import { io as connectSocket, type Socket } from 'socket.io-client'
import type { App } from '../../src/core/http/server.js'
import { nodePlatform } from '../../src/core/platform.js'
import { feedService } from '../../src/services/feed/index.js'
import { feedMigrations } from '../../src/services/feed/migrations/index.js'
import { createTestDatabase, type TestDatabase } from './db.js'
import { buildService, testConfig } from './config.js'
import { injectedResponse, injectJson, type InjectedResponse } from './inject.js'

export const TEST_JWT_SECRET = 'test-secret-0123456789abcdef0123456789abcdef'

export interface FilePart {
  field?: string
  filename: string
  contentType: string
  bytes: Buffer
}

export interface FeedHarness {
  app: App
  database: TestDatabase
  /** Moves the service's clock (token expiry). */
  advanceClock(ms: number): void
  /** Signs up (PUT, as the original client) and logs in; returns the user id and token. */
  user(email: string, name?: string, password?: string): Promise<{ userId: string; token: string }>
  /** JSON request; `token` adds Authorization: Bearer. */
  call(token: string | undefined, method: string, path: string, body?: unknown): Promise<InjectedResponse>
  /** multipart/form-data request. */
  form(token: string | undefined, method: string, path: string, fields: Record<string, string>, file?: FilePart): Promise<InjectedResponse>
  /** Starts listening on a random loopback port; resolves the base URL. */
  listen(): Promise<string>
}

export interface StartFeedOptions {
  env?: Record<string, string>
  /** Share a database with another harness (two instances); the first owner closes it. */
  database?: TestDatabase
  redisUrl?: string
  redisKey?: string
}

/** The feed app on a fresh test database (or a shared one); closed after the test file. */
export async function startFeed(options: StartFeedOptions = {}): Promise<FeedHarness> {
  const config = testConfig({
    JWT_SECRET: TEST_JWT_SECRET,
    REDIS_URL: options.redisUrl,
    FEED_REDIS_PREFIX: options.redisKey,
    ...options.env
  })
  const ownsDatabase = !options.database
  const database = options.database ?? (await createTestDatabase([feedMigrations]))
  let offset = 0
  const clock = () => new Date(Date.now() + offset)
  const { app, release } = await buildService(feedService, config, database, { platform: nodePlatform({ clock }) })
  await app.ready()
  after(async () => {
    await app.close()
    await release()
    if (ownsDatabase) await database.close()
  })

  function call(token: string | undefined, method: string, path: string, body?: unknown): Promise<InjectedResponse> {
    return injectJson(app, { method, url: path, token, body })
  }

  return {
    app,
    database,
    advanceClock(ms) {
      offset += ms
    },
    call,
    async form(token, method, path, fields, file) {
      const { payload, contentType } = multipartBody(fields, file)
      const response = await app.inject({
        method: method as 'POST',
        url: path,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': contentType },
        payload
      })
      return injectedResponse(response)
    },
    async user(email, name = 'Tester', password = 'secret123') {
      const signup = await call(undefined, 'PUT', '/auth/signup', { email, name, password })
      if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${signup.body}`)
      const login = await call(undefined, 'POST', '/auth/login', { email, password })
      if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.body}`)
      return { userId: login.json.userId as string, token: login.json.token as string }
    },
    async listen() {
      await app.listen({ port: 0, host: '127.0.0.1' })
      const address = app.server.address()
      if (!address || typeof address === 'string') throw new Error('not listening')
      return `http://127.0.0.1:${address.port}`
    }
  }
}

/** A multipart/form-data body with text fields and an optional file part. */
export function multipartBody(fields: Record<string, string>, file?: FilePart): { payload: Buffer; contentType: string } {
  const boundary = `----quartet${randomBytes(8).toString('hex')}`
  const chunks: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'image'}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`
      )
    )
    chunks.push(file.bytes, Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}

export { makeJpeg, makePng } from './images.js'

export function png(filename = 'photo.png', bytes = makePng()): FilePart {
  return { filename, contentType: 'image/png', bytes }
}

export interface ConnectOptions {
  transports?: ('websocket' | 'polling')[]
  /** Sent on every transport's requests (e.g. an Origin, as a browser would). */
  extraHeaders?: Record<string, string>
}

/**
 * A socket.io-client connection that resolves once connected (rejects with the connect_error);
 * closed after the test file.
 */
export async function connectClient(baseUrl: string, auth?: Record<string, unknown>, options: ConnectOptions = {}): Promise<Socket> {
  const socket = connectSocket(baseUrl, {
    transports: options.transports ?? ['websocket'],
    reconnection: false,
    forceNew: true,
    ...(auth ? { auth } : {}),
    ...(options.extraHeaders ? { extraHeaders: options.extraHeaders } : {})
  })
  after(() => {
    socket.close()
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve())
    socket.once('connect_error', reject)
  })
  return socket
}

/** Collects every "posts" event a socket receives. */
export function collectPosts(socket: Socket): any[] {
  const events: any[] = []
  socket.on('posts', (event: unknown) => {
    events.push(event)
  })
  return events
}

/** Waits until `predicate` holds (polling), or fails after `ms`. */
export async function waitFor(predicate: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}
