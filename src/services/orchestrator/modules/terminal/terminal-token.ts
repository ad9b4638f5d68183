/**
 * The terminal token: minted per server start (random, lifetime of the process), written 0600 to
 * `<project>/.quartet/runtime/terminal-token`, named in logs by its fingerprint only. It is a
 * different secret from the API token and the two gates never accept each other's token.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { LOCAL_TENANT, type Principal } from '../../principal.js'
import { tokenFingerprint, tokensEqual } from '../../runtime/api-token.js'
import { runtimeDir, writePrivateFileAtomic } from '../../runtime/private-file.js'

export interface TerminalToken {
  readonly token: string
  readonly fingerprint: string
  readonly file: string
  /** Constant-time check of a presented token. */
  matches(presented: string): boolean
  /** Removes the file (server shutdown). */
  forget(): void
}

export function terminalTokenFile(projectRoot: string): string {
  return path.join(runtimeDir(projectRoot), 'terminal-token')
}

export function mintTerminalToken(projectRoot: string, random: (bytes: number) => Buffer = randomBytes): TerminalToken {
  const token = `qtt_${random(32).toString('base64url')}`
  const file = terminalTokenFile(projectRoot)
  writePrivateFileAtomic(file, `${token}\n`)
  return {
    token,
    fingerprint: tokenFingerprint(token),
    file,
    matches: (presented) => presented.length > 0 && tokensEqual(presented, token),
    forget() {
      try {
        if (fs.readFileSync(file, 'utf8').trim() === token) fs.rmSync(file, { force: true })
      } catch {
        // already gone
      }
    }
  }
}

export const SOCKET_PROTOCOL_PREFIX = 'quartet.'

/** The token a WebSocket client offered as the subprotocol `quartet.<token>` (the first such entry). */
export function protocolToken(protocols: Iterable<string>): string | null {
  for (const protocol of protocols) {
    if (protocol.startsWith(SOCKET_PROTOCOL_PREFIX)) return protocol.slice(SOCKET_PROTOCOL_PREFIX.length)
  }
  return null
}

/** The holder of the terminal token: the local operator (no tenant claim), named by the token's fingerprint. */
export function terminalPrincipal(fingerprint: string): Principal {
  return { id: 'terminal', label: fingerprint, tenantId: LOCAL_TENANT, tenantClaimed: false, role: 'admin', channel: 'api' }
}
