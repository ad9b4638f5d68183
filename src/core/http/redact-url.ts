/**
 * Query and `;matrix` parameters whose values are logged as sent: paging, sorting and filters that
 * never carry a credential. Every other value is logged as `[redacted]` (a secret sent as `pwd`,
 * `sig`, `code` or `k` has no recognisable shape); the names themselves are kept.
 */
const LOGGED_PARAMETERS = new Set([
  'page',
  'pagesize',
  'page_size',
  'per_page',
  'limit',
  'offset',
  'cursor',
  'status',
  'statuses',
  'sort',
  'order',
  'v',
  'format'
])

/**
 * Values shaped like our credentials, wherever they appear: marketplace keys (`mk_`/`ck_` and a
 * 24-byte base64url token) and JWTs/JWEs (`eyJ…` header, then 2–4 more dot-separated parts).
 */
const CREDENTIAL_SHAPE = /(?<![A-Za-z0-9])(?:[mc]k_[A-Za-z0-9_-]{32,}|eyJ[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]*){2,4})/g

const REDACTED = '[redacted]'

/** Exact values of this server's own secrets (API token, signing keys), redacted wherever they appear. */
const serverSecrets = new Set<string>()
let secretsPattern = CREDENTIAL_SHAPE
let exactPattern: RegExp | undefined

/**
 * Registers a secret of this process (its API token, a signing key) so that its exact value never
 * reaches a log: not in a URL's path or query, raw or percent-encoded, and not in any other line
 * (see redactServerSecrets). Values shorter than 16 characters are not secrets worth the name.
 */
export function registerServerSecret(value: string | null | undefined): void {
  if (!value || value.length < 16 || serverSecrets.has(value)) return
  serverSecrets.add(value)
  const alternatives = [...serverSecrets].sort((a, b) => b.length - a.length).map((each) => each.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  exactPattern = new RegExp(alternatives.join('|'), 'g')
  secretsPattern = new RegExp(`${CREDENTIAL_SHAPE.source}|${alternatives.join('|')}`, 'g')
}

/** A log line with every registered server secret replaced (a no-op until one is registered). */
export function redactServerSecrets(text: string): string {
  if (exactPattern === undefined) return text
  exactPattern.lastIndex = 0
  return exactPattern.test(text) ? text.replace(exactPattern, REDACTED) : text
}

/**
 * The URL for logs: every query and `;matrix` parameter value redacted unless its name (decoded,
 * any `[…]` suffix ignored) is on the short list above, and anything shaped like an API key or a
 * JWT, or equal to one of this server's own secrets, redacted wherever it appears (path segments
 * too, raw or percent-encoded). The path and the parameter names are otherwise kept.
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
  // A bare `?word` is a value without a name: it may be the credential itself.
  if (equals === -1) return pair === '' || LOGGED_PARAMETERS.has(parameterName(pair)) ? pair : REDACTED
  const rawName = pair.slice(0, equals)
  return equals === pair.length - 1 || LOGGED_PARAMETERS.has(parameterName(rawName)) ? pair : `${rawName}=${REDACTED}`
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
  const pattern = secretsPattern
  if (!url.includes('%')) return url.replace(pattern, REDACTED)
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
  for (const match of decoded.join('').matchAll(pattern)) {
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
