declare global {
  interface Window {
    __FEED_API__?: string
  }
}

/** The API base URL: told by the serving program (/config.js), else the default local feed. */
export const API_URL = (window.__FEED_API__ ?? 'http://127.0.0.1:3300').replace(/\/$/, '')

export interface Creator {
  _id: string
  name: string
}
export interface Post {
  _id: string
  title: string
  content: string
  imageUrl: string
  creator: Creator
  createdAt: string
  updatedAt: string
}

/** An error answered by the API: its message, the per-field messages of a 422, and the status. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: string[] = []
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export function imageSrc(imageUrl: string): string {
  return /^https?:\/\//.test(imageUrl) ? imageUrl : `${API_URL}/${imageUrl.replace(/^\//, '')}`
}

interface ErrorBody {
  message?: unknown
  data?: { msg?: unknown; param?: unknown }[]
}

export async function request<T>(
  path: string,
  options: { method?: string; token?: string | null; json?: unknown; form?: FormData } = {}
): Promise<T> {
  const headers: Record<string, string> = {}
  if (options.token) headers.Authorization = `Bearer ${options.token}`
  let body: BodyInit | undefined
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(options.json)
  } else if (options.form) {
    body = options.form
  }
  let response: Response
  try {
    response = await fetch(`${API_URL}${path}`, { method: options.method ?? 'GET', headers, body })
  } catch {
    throw new ApiError(`Cannot reach the feed API at ${API_URL}. Is it running?`, 0)
  }
  const text = await response.text()
  let parsed: unknown
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  if (!response.ok) {
    const error = (parsed ?? {}) as ErrorBody
    const fields = Array.isArray(error.data)
      ? error.data.map((d) => (typeof d.param === 'string' && d.param ? `${d.param}: ${String(d.msg)}` : String(d.msg)))
      : []
    const message = typeof error.message === 'string' ? error.message : `The API answered ${response.status}.`
    throw new ApiError(message, response.status, fields)
  }
  return parsed as T
}
