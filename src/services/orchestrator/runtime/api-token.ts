import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { isLoopbackHost } from './loopback.js'
import { runtimeDir, writePrivateFileAtomic } from './private-file.js'

export type ApiTokenSource = 'explicit' | 'env' | 'config' | 'file' | 'minted' | 'disabled' | 'none'

export interface ResolveApiTokenOptions {
  explicit?: string | undefined
  env: Readonly<Record<string, string | undefined>>
  /** `api_auth_token` from `<project>/.quartet/config.json`, already interpolated. */
  projectConfigToken?: string | undefined
  projectRoot: string
  /** The bind host: only a loopback bind mints a token on its own. */
  host: string
}

export interface ResolvedApiToken {
  token: string | null
  source: ApiTokenSource
  /** `tok:` + 12 hex chars of SHA-256(token), the only form of the token that may be logged. */
  fingerprint: string | null
  /** The 0600 file holding the token when it was read from or written to disk. */
  file?: string
  /** A line for the start-up log (auth disabled, or remote bind without a token). */
  warning?: string
  /** QUARTET_API_AUTH_DISABLED=1: the bearer gate lets everything through. */
  disabled: boolean
  /** No token on a non-loopback bind: every non-exempt /api request is refused. */
  defaultDeny: boolean
}

export const API_TOKEN_ENV = 'QUARTET_API_TOKEN'
export const API_AUTH_DISABLED_ENV = 'QUARTET_API_AUTH_DISABLED'

export function apiTokenFile(projectRoot: string): string {
  return path.join(runtimeDir(projectRoot), 'api-token')
}

export function tokenFingerprint(token: string): string {
  return `tok:${createHash('sha256').update(token).digest('hex').slice(0, 12)}`
}

/**
 * Constant-time comparison: neither the content nor the length leaks. Tokens of up to COMPARED_BYTES are compared as
 * zero-padded buffers of that size (their byte lengths compared after); longer ones by their SHA-256 digests. A digest
 * per request was ~2 µs of every authenticated read under load (one-shot hashes cost several times more there than in
 * isolation).
 */
export function tokensEqual(presented: string, expected: string): boolean {
  const padded = paddedExpected(expected)
  const presentedBytes = Buffer.byteLength(presented)
  if (padded === null || presentedBytes > COMPARED_BYTES) return timingSafeEqual(sha256(presented), digestOfExpected(expected))
  presentedScratch.fill(0)
  presentedScratch.write(presented, 0)
  const same = timingSafeEqual(presentedScratch, padded.bytes)
  return same && presentedBytes === padded.length
}

const COMPARED_BYTES = 512
const presentedScratch = Buffer.alloc(COMPARED_BYTES)

// The expected token is the server's own and rarely changes: its padded bytes (null: too long) and digest are kept.
let expectedPadded: { token: string; padded: { bytes: Buffer; length: number } | null } | undefined
function paddedExpected(expected: string): { bytes: Buffer; length: number } | null {
  if (expectedPadded?.token !== expected) {
    const length = Buffer.byteLength(expected)
    let padded = null
    if (length <= COMPARED_BYTES) {
      const bytes = Buffer.alloc(COMPARED_BYTES)
      bytes.write(expected, 0)
      padded = { bytes, length }
    }
    expectedPadded = { token: expected, padded }
  }
  return expectedPadded.padded
}

const sha256 = (text: string): Buffer => hash('sha256', text, 'buffer')

let expectedDigest: { token: string; digest: Buffer } | undefined
function digestOfExpected(expected: string): Buffer {
  if (expectedDigest?.token !== expected) expectedDigest = { token: expected, digest: sha256(expected) }
  return expectedDigest.digest
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed ? trimmed : undefined
}

function found(token: string, source: ApiTokenSource, file?: string): ResolvedApiToken {
  return { token, source, fingerprint: tokenFingerprint(token), ...(file ? { file } : {}), disabled: false, defaultDeny: false }
}

/** The persisted loopback token, or a fresh one written atomically (0600 in a 0700 directory). */
function readOrMintLoopbackToken(projectRoot: string): ResolvedApiToken {
  const file = apiTokenFile(projectRoot)
  let existing: string | undefined
  try {
    existing = nonEmpty(fs.readFileSync(file, 'utf8'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  // A hand-edited or truncated file shorter than a real token is replaced, not trusted.
  if (existing && existing.length >= 32) {
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600)
    return found(existing, 'file', file)
  }
  const token = randomBytes(32).toString('base64url')
  writePrivateFileAtomic(file, `${token}\n`)
  return found(token, 'minted', file)
}

/**
 * The API token, in one resolution order: explicit option, QUARTET_API_TOKEN, the project
 * config's `api_auth_token`, then (loopback bind only) the token persisted under
 * `.quartet/runtime/api-token`, minted on first start.
 */
export function resolveApiToken(options: ResolveApiTokenOptions): ResolvedApiToken {
  if (options.env[API_AUTH_DISABLED_ENV] === '1') {
    return {
      token: null,
      source: 'disabled',
      fingerprint: null,
      disabled: true,
      defaultDeny: false,
      warning:
        `SECURITY WARNING: ${API_AUTH_DISABLED_ENV}=1 — the API bearer check is OFF; ` +
        'anyone who can reach this port controls the orchestrator API'
    }
  }
  const explicit = nonEmpty(options.explicit)
  if (explicit) return found(explicit, 'explicit')
  const fromEnv = nonEmpty(options.env[API_TOKEN_ENV])
  if (fromEnv) return found(fromEnv, 'env')
  const fromConfig = nonEmpty(options.projectConfigToken)
  if (fromConfig) return found(fromConfig, 'config')
  if (isLoopbackHost(options.host)) return readOrMintLoopbackToken(options.projectRoot)
  return {
    token: null,
    source: 'none',
    fingerprint: null,
    disabled: false,
    defaultDeny: true,
    warning:
      `no API token for the non-loopback bind ${options.host}: ` +
      `every /api request is refused until ${API_TOKEN_ENV} or api_auth_token is set`
  }
}

/** Removes a token this process minted, unless the file has meanwhile been replaced by another one. */
export function forgetMintedToken(resolved: ResolvedApiToken): void {
  if (resolved.source !== 'minted' || !resolved.file || !resolved.token) return
  try {
    if (fs.readFileSync(resolved.file, 'utf8').trim() === resolved.token) fs.rmSync(resolved.file, { force: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
}
