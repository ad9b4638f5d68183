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
    origin: options.origin,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-Request-Id', ...(options.allowedHeaders ?? [])],
    exposedHeaders: ['X-Request-Id'],
    ...(options.maxAge !== undefined ? { maxAge: options.maxAge } : {})
  }
  await app.register(cors, settings)
}
