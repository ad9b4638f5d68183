import cors, { type FastifyCorsOptions } from '@fastify/cors'
import type { App } from '../server.js'

export type OriginCheck = (origin: string | undefined, callback: (error: Error | null, allow: boolean) => void) => void

export interface CorsPolicyOptions {
  /** A list of origins, '*' for any, or a function deciding per origin. */
  origin: string[] | '*' | OriginCheck
  /** Headers browsers may send besides Content-Type, Authorization and X-Request-Id. */
  allowedHeaders?: string[]
  maxAge?: number
}

/** CORS for a token API (credentials mode is never used: these APIs take bearer tokens, not cookies). */
export async function corsPolicy(app: App, options: CorsPolicyOptions): Promise<void> {
  const settings: FastifyCorsOptions = {
    // A literal "*" for open APIs: no per-request origin reflection and no Vary header needed.
    // A list becomes a check, so a refused origin's preflight falls through to the server's 403
    // (@fastify/cors would answer it 204 without a grant). Without an Origin header there is no
    // CORS: a plain OPTIONS then meets the server's 405 instead of a text/plain 400.
    origin: options.origin === '*' ? '*' : onlyWithOrigin(Array.isArray(options.origin) ? allowList(options.origin) : options.origin),
    strictPreflight: false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-Request-Id', ...(options.allowedHeaders ?? [])],
    exposedHeaders: ['X-Request-Id'],
    ...(options.maxAge !== undefined ? { maxAge: options.maxAge } : {})
  }
  await app.register(cors, settings)
}

function allowList(origins: string[]): OriginCheck {
  const allowed = new Set(origins)
  return (origin, callback) => callback(null, origin !== undefined && allowed.has(origin))
}

function onlyWithOrigin(check: OriginCheck): OriginCheck {
  return (origin, callback) => (origin === undefined ? callback(null, false) : check(origin, callback))
}
