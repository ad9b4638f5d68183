/** Parameters that carry credentials (the marketplace's `apikey` / `X-CE-KEY`, tokens some clients append). */
const SECRET_PARAMETERS = new Set([
  'apikey',
  'api_key',
  'api-key',
  'x-ce-key',
  'key',
  'token',
  'access_token',
  'id_token',
  'refresh_token',
  'jwt',
  'auth',
  'authorization',
  'bearer',
  'password',
  'secret',
  'client_secret'
])

/**
 * Values shaped like our credentials, wherever they appear: marketplace keys (`mk_`/`ck_` and a
 * 24-byte base64url token) and JWTs/JWEs (`eyJ…` header, then 2–4 more dot-separated parts).
 */
const CREDENTIAL_SHAPE = /(?<![A-Za-z0-9])(?:[mc]k_[A-Za-z0-9_-]{32,}|eyJ[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]*){2,4})/g

const REDACTED = '[redacted]'

/**
 * The URL with credentials replaced, for logs: by name (query and `;matrix` parameters, the name
 * decoded and any `[…]` suffix ignored, so `apikey%5B%5D=` counts) and by value (anything shaped
 * like an API key or a JWT in the path or query, raw or percent-encoded). Nothing else changes.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?')
  const path = queryStart === -1 ? url : url.slice(0, queryStart)
  let redacted = path.replace(/;[^/;?]*/g, (parameter) => `;${redactPair(parameter.slice(1))}`)
  if (queryStart !== -1) redacted += `?${url.slice(queryStart + 1).replace(/[^&;]+/g, redactPair)}`
  return redactCredentialShapes(redacted)
}

function redactPair(pair: string): string {
  const equals = pair.indexOf('=')
  if (equals === -1) return pair
  const rawName = pair.slice(0, equals)
  return SECRET_PARAMETERS.has(parameterName(rawName)) ? `${rawName}=${REDACTED}` : pair
}

/** `Api%4Bey[]` → `apikey`: decoded, trimmed, lower case, without an array/object suffix. */
function parameterName(rawName: string): string {
  let name: string
  try {
    name = decodeURIComponent(rawName.replace(/\+/g, ' '))
  } catch {
    name = rawName
  }
  return name.replace(/\[.*$/s, '').trim().toLowerCase()
}

function redactCredentialShapes(url: string): string {
  if (!url.includes('%')) return url.replace(CREDENTIAL_SHAPE, REDACTED)
  // Match on the decoded text, replace the raw span: a key may be percent-encoded, even in part.
  const decoded: string[] = []
  const rawStarts: number[] = []
  for (let i = 0; i < url.length;) {
    rawStarts.push(i)
    const byte = url[i] === '%' ? parseHexByte(url, i + 1) : undefined
    if (byte === undefined) {
      decoded.push(url[i] as string)
      i += 1
    } else {
      // Credentials are ASCII; other bytes only need to break a match.
      decoded.push(byte < 0x80 ? String.fromCharCode(byte) : '\0')
      i += 3
    }
  }
  let out = ''
  let copied = 0
  for (const match of decoded.join('').matchAll(CREDENTIAL_SHAPE)) {
    const start = rawStarts[match.index] as number
    const endIndex = match.index + match[0].length
    const end = endIndex < rawStarts.length ? (rawStarts[endIndex] as number) : url.length
    out += url.slice(copied, start) + REDACTED
    copied = end
  }
  return out + url.slice(copied)
}

function parseHexByte(text: string, at: number): number | undefined {
  const hex = text.slice(at, at + 2)
  return /^[0-9A-Fa-f]{2}$/.test(hex) ? Number.parseInt(hex, 16) : undefined
}
