/**
 * How `quartet mcp` reaches the running orchestrator: the project's handshake file names the
 * port, the token comes from QUARTET_API_TOKEN or the token file. State has one owner (the
 * server), so the MCP server never opens the database itself.
 */
import fs from 'node:fs'
import { apiTokenFile } from '../runtime/api-token.js'
import { readHandshake } from '../runtime/handshake.js'

export class OrchestratorUnavailable extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OrchestratorUnavailable'
  }
}

export interface OrchestratorReply {
  status: number
  json: unknown
}

export interface OrchestratorClient {
  get(path: string, signal?: AbortSignal): Promise<OrchestratorReply>
  post(path: string, body: unknown, signal?: AbortSignal): Promise<OrchestratorReply>
}

export interface ClientOptions {
  projectRoot: string
  env: Readonly<Record<string, string | undefined>>
  fetch: typeof fetch
}

function readToken(options: ClientOptions, tokenFile: string | undefined): string | null {
  if (options.env.QUARTET_API_TOKEN) return options.env.QUARTET_API_TOKEN
  for (const file of [tokenFile, apiTokenFile(options.projectRoot)]) {
    if (!file) continue
    try {
      return fs.readFileSync(file, 'utf8').trim()
    } catch {
      // try the next place
    }
  }
  return null
}

function baseUrlOf(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`
}

function parseBody(text: string): unknown {
  if (!text) return null
  try {
    return JSON.parse(text)
  } catch {
    return { error: text }
  }
}

/** A client that finds the server afresh on every call, so a server started after `quartet mcp` is found too. */
export function createOrchestratorClient(options: ClientOptions): OrchestratorClient {
  async function call(method: 'GET' | 'POST', path: string, body: unknown, signal: AbortSignal | undefined): Promise<OrchestratorReply> {
    const handshake = readHandshake(options.projectRoot)
    if (!handshake)
      throw new OrchestratorUnavailable(
        `the Quartet orchestrator is not running for ${options.projectRoot} ` +
          `(start it with \`quartet serve orchestrator --project ${options.projectRoot}\`)`
      )
    const token = readToken(options, handshake.tokenFile)
    let response: Response
    try {
      response = await options.fetch(`${baseUrlOf(handshake.host, handshake.port)}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {})
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        ...(signal ? { signal } : {})
      })
    } catch (error) {
      if (signal?.aborted) throw error
      throw new OrchestratorUnavailable(
        `the Quartet orchestrator at port ${handshake.port} did not answer (${error instanceof Error ? error.message : String(error)}); ` +
          'is `quartet serve orchestrator` running?'
      )
    }
    const text = await response.text()
    return { status: response.status, json: parseBody(text) }
  }
  return {
    get: (path, signal) => call('GET', path, undefined, signal),
    post: (path, body, signal) => call('POST', path, body, signal)
  }
}
