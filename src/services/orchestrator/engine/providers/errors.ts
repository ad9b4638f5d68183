/** Why a provider call failed, and whether trying again later could succeed. */
export type ProviderErrorCode = 'http' | 'timeout' | 'aborted' | 'network' | 'malformed' | 'config'

export class ProviderError extends Error {
  readonly transient: boolean
  readonly code: ProviderErrorCode
  readonly status: number | undefined
  readonly retryAfterMs: number | undefined

  constructor(message: string, details: { transient: boolean; code: ProviderErrorCode; status?: number; retryAfterMs?: number }) {
    super(message)
    this.name = 'ProviderError'
    this.transient = details.transient
    this.code = details.code
    this.status = details.status
    this.retryAfterMs = details.retryAfterMs
  }
}

/** 429 and 5xx are worth retrying; every other 4xx means the request itself is wrong. */
export function isTransientStatus(status: number): boolean {
  return status === 429 || status >= 500
}

// Socket-level failures that a later attempt can plausibly get past (server restarting, proxy reset).
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED'
])

/** Turns what fetch threw into a ProviderError; `timedOut`/`aborted` say which signal (if any) fired. */
export function fromFetchFailure(
  error: unknown,
  where: string,
  state: { timedOut: boolean; aborted: boolean; timeoutMs: number }
): ProviderError {
  if (error instanceof ProviderError) return error
  if (state.aborted) return new ProviderError(`${where}: request cancelled`, { transient: false, code: 'aborted' })
  if (state.timedOut) return new ProviderError(`${where}: no answer within ${state.timeoutMs} ms`, { transient: true, code: 'timeout' })
  const code = networkCode(error)
  const detail = code ?? (error instanceof Error ? error.message : String(error))
  return new ProviderError(`${where}: ${detail}`, { transient: code !== undefined && TRANSIENT_NETWORK_CODES.has(code), code: 'network' })
}

function networkCode(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/** Retry-After as seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: Date): number | undefined {
  if (header === null || header.trim() === '') return undefined
  const trimmed = header.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now.getTime())
}
