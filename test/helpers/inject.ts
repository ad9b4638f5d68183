import type { App } from '../../src/core/http/server.js'

/** An injected response with its body parsed as JSON when it is JSON (undefined otherwise). */
export interface InjectedResponse {
  status: number
  json: any
  body: string
  headers: Record<string, unknown>
}

export interface InjectJsonRequest {
  method: string
  url: string
  /** Sent as Authorization: Bearer <token>. */
  token?: string | undefined
  headers?: Record<string, string>
  /** Sent as JSON when given. */
  body?: unknown
}

/** One request through `app.inject` with an optional bearer token and JSON body. */
export async function injectJson(app: App, request: InjectJsonRequest): Promise<InjectedResponse> {
  const hasBody = request.body !== undefined
  const response = await app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: {
      ...(request.token ? { authorization: `Bearer ${request.token}` } : {}),
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
      ...request.headers
    },
    ...(hasBody ? { payload: JSON.stringify(request.body) } : {})
  })
  return injectedResponse(response)
}

/** The response of any `app.inject` call (multipart forms, raw payloads) in the same shape. */
export function injectedResponse(response: { statusCode: number; body: string; headers: Record<string, unknown> }): InjectedResponse {
  let json: unknown
  try {
    json = response.body ? JSON.parse(response.body) : undefined
  } catch {
    json = undefined
  }
  return { status: response.statusCode, json, body: response.body, headers: response.headers }
}
