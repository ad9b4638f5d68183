import type { ServiceName } from '../src/core/config/config.js'

/** Targets from the issue; the table marks each row met / missed. */
export interface BenchTarget {
  /** Minimum req/s as a fraction of the node:http baseline (0.3 = 30 %). */
  minRatio?: number
  /** Maximum p99 latency in ms. */
  maxP99Ms?: number
}

/** An autocannon run against one route of the service under test. */
export interface HttpScenario {
  kind: 'http'
  /** Row label, e.g. "GET /api/private/v1/tour/{id} (authenticated)". */
  name: string
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Path (with query) relative to the service base URL. */
  path: string
  /** Absolute URL to load instead (a reference server from `replayServer`). */
  url?: string
  headers?: Record<string, string>
  body?: string
  /** Default 50. */
  connections?: number
  /** Paths to cycle through instead of `path`, one after another across all connections (no two consecutive requests alike). */
  rotatePaths?: string[]
  target?: BenchTarget
}

export interface CustomResult {
  /** Column values for the "other measurements" table, e.g. { 'p50 ms': 3.1, 'p99 ms': 12 }. */
  metrics: Record<string, string | number>
  /** Whether the target was met (undefined when there is none). */
  pass?: boolean
  /** What the target was, in words, e.g. "p99 < 100 ms, RSS < 250 MB". */
  targetText?: string
}

/** Anything autocannon cannot express (Socket.IO fan-out, a sync loop): measured by its own code. */
export interface CustomScenario {
  kind: 'custom'
  name: string
  run(context: BenchContext): Promise<CustomResult>
}

export type Scenario = HttpScenario | CustomScenario

export interface BenchContext {
  /** Base URL of the service under test, e.g. http://127.0.0.1:43210 */
  baseUrl: string
  /** Environment the server runs with (QUARTET_DATA_DIR, DATABASE_URL, …). */
  env: Record<string, string>
  /** Runs the built `quartet` CLI with that environment; resolves its stdout (rejects on non-zero exit). */
  cli(args: string[]): Promise<string>
  /** Current resident memory of the server process, in MB. */
  serverRssMb(): number
  /**
   * Starts a raw node:http server (own process, stopped with the service) that answers every
   * request with `body`; resolves its URL. Shows what the load generator can take of responses
   * that size on this machine, whatever the server does.
   */
  replayServer(body: Buffer): Promise<string>
}

/** One service's benchmark: seed data through the running server, then list what to measure. */
export interface ServiceBench {
  service: ServiceName
  /** Extra environment for the server (e.g. JWT_SECRET). */
  env?: Record<string, string>
  setup(context: BenchContext): Promise<Scenario[]>
}
