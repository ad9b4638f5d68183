/**
 * The stdio transport of `quartet mcp`, listening before the MCP SDK is loaded. Loading the SDK
 * and zod takes most of a second on a busy machine, and Claude Code in `-p` mode does not wait for
 * a server that has not answered `initialize` when its first permission request comes ("tool not
 * found"). So this answers `initialize` itself at once, with the answer the SDK's server gives
 * (test/services/orchestrator/approvals/mcp-startup.test.ts compares them), and queues every line
 * until the SDK's server is connected; the SDK then sees the whole conversation, `initialize`
 * included, and only its second answer to `initialize` is dropped.
 *
 * Only types are imported from the SDK: this module must stay cheap to load.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

export const MCP_SERVER_NAME = 'quartet'

// The SDK's LATEST_PROTOCOL_VERSION and SUPPORTED_PROTOCOL_VERSIONS (its types.js), negotiated the same way.
const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']
/** What the server offers: McpServer announces `tools` with `listChanged` once a tool is registered. */
export const SERVER_CAPABILITIES = { tools: { listChanged: true } }

export interface ServerInfo {
  name: string
  version: string
}

/** The `initialize` result the SDK's server answers for a request asking for `requestedVersion`. */
export function initializeResult(requestedVersion: unknown, serverInfo: ServerInfo) {
  const protocolVersion =
    typeof requestedVersion === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requestedVersion)
      ? requestedVersion
      : SUPPORTED_PROTOCOL_VERSIONS[0]!
  return { protocolVersion, capabilities: SERVER_CAPABILITIES, serverInfo }
}

type Id = string | number

function earlyInitialize(line: string): { id: Id; protocolVersion: unknown } | null {
  let message: unknown
  try {
    message = JSON.parse(line)
  } catch {
    return null
  }
  if (!message || typeof message !== 'object') return null
  const { jsonrpc, id, method, params } = message as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown }
  if (jsonrpc !== '2.0' || method !== 'initialize' || (typeof id !== 'string' && typeof id !== 'number')) return null
  if (!params || typeof params !== 'object') return null
  return { id, protocolVersion: (params as { protocolVersion?: unknown }).protocolVersion }
}

export class EarlyStdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void
  onclose?: () => void
  onerror?: (error: Error) => void

  private buffered = ''
  private readonly queued: string[] = []
  private parse: ((line: string) => JSONRPCMessage) | null = null
  /** Ids of the `initialize` requests answered here: the SDK's own answers to them are dropped. */
  private readonly answered = new Set<Id>()

  private readonly onData = (chunk: Buffer) => {
    this.buffered += chunk.toString('utf8')
    for (let cut = this.buffered.indexOf('\n'); cut !== -1; cut = this.buffered.indexOf('\n')) {
      const line = this.buffered.slice(0, cut).replace(/\r$/, '')
      this.buffered = this.buffered.slice(cut + 1)
      if (line.trim() !== '') this.receive(line)
    }
  }

  private readonly onError = (error: Error) => this.onerror?.(error)

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly serverInfo: ServerInfo
  ) {
    input.on('data', this.onData)
    input.on('error', this.onError)
  }

  /** How lines become messages once the SDK is loaded (its deserializeMessage validates them). */
  useParser(parse: (line: string) => JSONRPCMessage): void {
    this.parse = parse
  }

  async start(): Promise<void> {
    if (!this.parse) throw new Error('EarlyStdioTransport: useParser() before connecting')
    for (const line of this.queued.splice(0)) this.deliver(line)
  }

  send(message: JSONRPCMessage): Promise<void> {
    const id = 'id' in message && ('result' in message || 'error' in message) ? message.id : undefined
    if (id !== undefined && this.answered.delete(id)) return Promise.resolve()
    return this.write(message)
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData)
    this.input.off('error', this.onError)
    if (this.input.listenerCount('data') === 0) this.input.pause()
    this.onclose?.()
  }

  private receive(line: string): void {
    if (!this.parse) {
      const initialize = earlyInitialize(line)
      if (initialize && !this.answered.has(initialize.id)) {
        this.answered.add(initialize.id)
        void this.write({ jsonrpc: '2.0', id: initialize.id, result: initializeResult(initialize.protocolVersion, this.serverInfo) })
      }
      this.queued.push(line)
      return
    }
    this.deliver(line)
  }

  private deliver(line: string): void {
    try {
      this.onmessage?.(this.parse!(line))
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)))
    }
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve()
      else this.output.once('drain', () => resolve())
    })
  }
}
