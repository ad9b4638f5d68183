/** The typed API client: paths and bodies come from the committed OpenAPI document (schema.d.ts is generated). */
import createClient, { type Middleware } from 'openapi-fetch'
import type { paths } from './schema'
import { authHeaders } from './token'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
  }
}

const auth: Middleware = {
  onRequest({ request }) {
    for (const [name, value] of Object.entries(authHeaders())) request.headers.set(name, value)
    return request
  }
}

export const api = createClient<paths>({ baseUrl: window.location.origin })
api.use(auth)

/** The data of an openapi-fetch answer, or an ApiError carrying the server's `{error}` message. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.data !== undefined) return result.data
  const body = result.error as { error?: string } | undefined
  throw new ApiError(result.response.status, body?.error ?? `HTTP ${result.response.status}`)
}

/**
 * A route another part of Quartet may not serve yet (views that slot in ahead of their API):
 * null on 404, so the view can say so instead of showing invented data.
 */
export async function optionalGet(url: string): Promise<unknown> {
  const response = await fetch(url, { headers: { ...authHeaders(), accept: 'application/json' }, cache: 'no-store' })
  if (response.status === 404) return null
  const body = (await response.json().catch(() => ({}))) as { error?: string }
  if (!response.ok) throw new ApiError(response.status, body.error ?? `HTTP ${response.status}`)
  return body
}
