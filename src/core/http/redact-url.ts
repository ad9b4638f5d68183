/** Query parameters that carry credentials (the marketplace's `apikey`, tokens some clients append). */
const SECRET_PARAMETERS = new Set(['apikey', 'api_key', 'api-key', 'key', 'token', 'access_token', 'id_token', 'refresh_token', 'jwt', 'password', 'secret', 'client_secret'])

/** The URL with the values of credential-bearing query parameters replaced, for logs. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?')
  if (queryStart === -1) return url
  const pairs = url.slice(queryStart + 1).split('&').map((pair) => {
    const equals = pair.indexOf('=')
    const rawName = equals === -1 ? pair : pair.slice(0, equals)
    let name: string
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '))
    } catch {
      name = rawName
    }
    return equals !== -1 && SECRET_PARAMETERS.has(name.trim().toLowerCase()) ? `${rawName}=[redacted]` : pair
  })
  return `${url.slice(0, queryStart)}?${pairs.join('&')}`
}
