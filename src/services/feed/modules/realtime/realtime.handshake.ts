import type { IncomingMessage } from 'node:http'
import type { Socket } from 'socket.io'
import { bearerToken } from '../../../../core/auth/jwt.js'
import type { FeedTokens } from '../../auth.js'

export type OriginCheck = (origin: string | undefined, callback: (error: Error | null, allow: boolean) => void) => void

/** Why a handshake was refused; the client's connect_error carries the message and `data.code`. */
export class HandshakeRefused extends Error {
  readonly data: { code: string }
  constructor(code: string, message: string) {
    super(message)
    this.name = 'HandshakeRefused'
    this.data = { code }
  }
}

export const HANDSHAKE_MESSAGES = {
  invalid: 'Not authenticated: the token is invalid or has expired; log in again (POST /auth/login).',
  malformed: 'Not authenticated: auth.token must be a login token string (from POST /auth/login), or be left out.',
  badHeader: 'Not authenticated: the Authorization header must be "Bearer <token>".',
  required:
    'Not authenticated: live posts need a login token (from POST /auth/login) passed as auth.token; ' +
    'this server does not accept anonymous listeners (FEED_SOCKET_ANONYMOUS=1 allows them).'
} as const

/**
 * Engine.IO's allowRequest: runs before any transport is set up, so the origin allow-list holds
 * for polling and WebSocket handshakes alike (the `cors` option alone only sets response headers,
 * and browsers do not apply CORS to WebSockets). Requests without an Origin header come from
 * non-browser clients (`quartet feed watch`, socket.io-client in Node) and pass.
 */
export function allowRequestByOrigin(origin: OriginCheck) {
  return (request: IncomingMessage, callback: (message: string | null | undefined, success: boolean) => void): void => {
    const header = request.headers.origin
    origin(header, (error, allow) => {
      if (error) return callback(error.message, false)
      callback(allow ? null : `Origin ${header ?? ''} is not allowed (FEED_CORS_ORIGINS)`, allow)
    })
  }
}

type Credential = { kind: 'none' } | { kind: 'token'; token: string } | { kind: 'malformed'; message: string }

/** The token a client sent: `auth.token` (browsers), else an `Authorization: Bearer` header (Node clients). */
export function handshakeCredential(socket: Pick<Socket, 'handshake'>): Credential {
  const auth = socket.handshake.auth as Record<string, unknown> | undefined
  if (auth && Object.hasOwn(auth, 'token') && auth.token !== undefined) {
    const token = typeof auth.token === 'string' ? bearerToken(auth.token) : undefined
    return token ? { kind: 'token', token } : { kind: 'malformed', message: HANDSHAKE_MESSAGES.malformed }
  }
  const header = socket.handshake.headers.authorization
  if (header === undefined) return { kind: 'none' }
  const token = bearerToken(header)
  return token ? { kind: 'token', token } : { kind: 'malformed', message: HANDSHAKE_MESSAGES.badHeader }
}

/**
 * Socket.IO middleware: a valid token is required, unless anonymous listeners are allowed (the
 * original course client connects without one). A token that is sent must be valid either way.
 */
export function authenticateHandshake(tokens: FeedTokens, allowAnonymous: boolean) {
  return (socket: Socket, next: (error?: Error) => void): void => {
    const credential = handshakeCredential(socket)
    if (credential.kind === 'malformed') return next(new HandshakeRefused('FEED_TOKEN_INVALID', credential.message))
    if (credential.kind === 'none') {
      return allowAnonymous ? next() : next(new HandshakeRefused('FEED_NOT_AUTHENTICATED', HANDSHAKE_MESSAGES.required))
    }
    tokens.verify(credential.token).then(
      (caller) => {
        socket.data.userId = caller.userId
        socket.data.expiresAt = caller.expiresAt
        next()
      },
      () => next(new HandshakeRefused('FEED_TOKEN_INVALID', HANDSHAKE_MESSAGES.invalid))
    )
  }
}
