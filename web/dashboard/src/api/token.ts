/**
 * The API token: handed to loopback pages by the server in a meta tag, otherwise typed once by the
 * user and kept for this tab only (sessionStorage), never in the URL.
 */
const KEY = 'quartet-api-token'

export function injectedToken(): string | null {
  return document.querySelector<HTMLMetaElement>('meta[name="quartet-api-token"]')?.content || null
}

export function currentToken(): string | null {
  return injectedToken() ?? sessionStorage.getItem(KEY)
}

export function rememberToken(token: string): void {
  sessionStorage.setItem(KEY, token.trim())
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY)
}

export function authHeaders(): Record<string, string> {
  const token = currentToken()
  return token ? { authorization: `Bearer ${token}` } : {}
}
