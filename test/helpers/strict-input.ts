import type { App } from '../../src/core/http/server.js'
import { injectedResponse, type InjectedResponse } from './inject.js'

/** Query values that parse to no finite number (the last one overflows to Infinity). */
export const NON_FINITE = ['Infinity', '-Infinity', '+Infinity', '1e309', '-1e309', `9${'9'.repeat(399)}`, 'NaN']

/**
 * "Content-Type: application/json" with an empty body, as clients send it: without
 * Content-Length (light-my-request adds none for an absent payload) and with "Content-Length: 0".
 */
export const EMPTY_JSON_VARIANTS: Record<string, string>[] = [
  { 'content-type': 'application/json' },
  { 'content-type': 'application/json', 'content-length': '0' }
]

export async function injectEmptyJson(
  app: App,
  method: 'GET' | 'DELETE' | 'POST',
  url: string,
  variant: Record<string, string>,
  headers: Record<string, string> = {}
): Promise<InjectedResponse> {
  return injectedResponse(await app.inject({ method, url, headers: { ...headers, ...variant } }))
}
