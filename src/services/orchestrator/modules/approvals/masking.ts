/**
 * Masks secrets in an approval's arguments before they are stored or shown. Two layers (see
 * docs/decisions.md): secretlint's recommended preset finds provider credentials by their
 * curated, maintained rules (GitHub, Slack, npm, GCP, SendGrid, basic-auth URLs, private keys …);
 * a small documented pattern set adds the generic forms secretlint leaves to its users (bearer
 * headers, `PASSWORD=…` assignments, `sk-…` model keys, AWS key ids, JWTs, PEM blocks).
 * A string under a secret-sounding key (password, token, api_key …) is masked whole.
 */
import { lintSource } from '@secretlint/core'
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend'

const SECRETLINT_CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommendedPreset }] }

export const MASK = '[REDACTED]'

interface SecretPattern {
  name: string
  pattern: RegExp
  /** The capture group holding the secret (0: the whole match). */
  group: number
}

// The secret-sounding word in the name of a `secret-assignment`.
const SECRET_NAME_WORD = '(?:api[_-]?key|secret|token|passw(?:or)?d|pwd|credential)'

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    name: 'private-key',
    pattern: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----[\s\S]{0,32768}?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|$)/g,
    group: 0
  },
  { name: 'authorization', pattern: /\b(?:Bearer|Basic|Token)[ \t]{1,8}([A-Za-z0-9._~+/=-]{8,})/gi, group: 1 },
  { name: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g, group: 0 },
  { name: 'model-api-key', pattern: /\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}/g, group: 0 },
  { name: 'aws-access-key-id', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g, group: 0 },
  { name: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})\b/g, group: 0 },
  { name: 'url-credentials', pattern: /\b[a-z][a-z0-9+.-]{0,30}:\/\/[^/\s:@]{1,256}:([^/\s@]{1,256})@/gi, group: 1 },
  // NAME=value / NAME: value where NAME says secret (API_KEY, AWS_SECRET_ACCESS_KEY, password …).
  // Name parts are bounded so a long identifier-like string cannot make the match quadratic.
  {
    name: 'secret-assignment',
    pattern: new RegExp(
      '\\b[A-Za-z0-9_.-]{0,48}' + SECRET_NAME_WORD + '[A-Za-z0-9_.-]{0,48}["\']?[ \\t]{0,8}[=:][ \\t]{0,8}["\']?([^\\s"\',;&]{3,})',
      'gi'
    ),
    group: 1
  },
  // --password value / --token=value
  { name: 'secret-flag', pattern: /--(?:[a-z0-9-]{0,40}-)?(?:password|passwd|token|secret|api-key)[= ]{1,8}["']?([^\s"']{3,})/gi, group: 1 }
]

const SECRET_KEY = /(?:passw(?:or)?d|pwd|secret|token|api[_-]?key|authorization|credential|private[_-]?key|cookie|session)/i

type Range = [number, number]

function patternRanges(text: string): Range[] {
  const ranges: Range[] = []
  for (const { pattern, group } of SECRET_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const secret = match[group]
      if (!secret) continue
      const start = match.index + (group === 0 ? 0 : match[0].lastIndexOf(secret))
      ranges.push([start, start + secret.length])
    }
  }
  return ranges
}

async function secretlintRanges(text: string): Promise<Range[]> {
  const result = await lintSource({
    source: { filePath: 'approval-arguments.txt', content: text, contentType: 'text' },
    options: { config: SECRETLINT_CONFIG, noPhysicFilePath: true }
  })
  return result.messages.map((message) => [message.range[0], message.range[1]] as Range)
}

function applyMasks(text: string, ranges: Range[]): string {
  if (ranges.length === 0) return text
  const merged = ranges
    .sort((a, b) => a[0] - b[0])
    .reduce<Range[]>((out, range) => {
      const last = out[out.length - 1]
      if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1])
      else out.push([range[0], range[1]])
      return out
    }, [])
  let masked = ''
  let at = 0
  for (const [start, end] of merged) {
    masked += text.slice(at, start) + MASK
    at = end
  }
  return masked + text.slice(at)
}

/** One string with every secret found replaced by [REDACTED]. */
export async function maskText(text: string): Promise<string> {
  if (text.length === 0) return text
  return applyMasks(text, [...patternRanges(text), ...(await secretlintRanges(text))])
}

/** A deep copy of a JSON value with every string leaf masked (whole, under a secret-sounding key). */
export async function maskArguments(value: unknown, key?: string): Promise<unknown> {
  if (typeof value === 'string') return key !== undefined && SECRET_KEY.test(key) && value !== '' ? MASK : maskText(value)
  if (Array.isArray(value)) return Promise.all(value.map((item) => maskArguments(item, key)))
  if (value !== null && typeof value === 'object') {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await maskArguments(v, k)] as const))
    return Object.fromEntries(entries)
  }
  return value
}
