import assert from 'node:assert/strict'
import fc from 'fast-check'
import type { App } from '../../src/core/http/server.js'
import type { Database } from '../../src/core/db/database.js'
import { APPEND_ONLY_TABLES, snapshotTables } from './db.js'
import { NON_FINITE } from './strict-input.js'
import { withTimeout } from '../../src/core/with-timeout.js'

interface OpenApiParameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required?: boolean
  schema?: JsonSchema
}
interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  [k: string]: unknown
}
interface OpenApiOperation {
  parameters?: OpenApiParameter[]
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
}
interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation>>
}

export interface FuzzOptions {
  app: App
  /** The service's OpenAPI document (app.swagger()). */
  openapi: unknown
  database: Database
  /** Only tables starting with this prefix are compared before/after rejected writes. */
  tablePrefix: string
  /** Tables a rejected write may append to (an audit log records the rejection). */
  ignoreTables?: readonly string[]
  /** Headers of a valid caller, so requests get past authentication and reach validation. */
  authHeaders: () => Promise<Record<string, string>> | Record<string, string>
  /** Whether a 4xx body has the service's error shape. */
  isErrorBody: (body: unknown, status: number) => boolean
  /** Requests per operation (default 40). */
  runsPerOperation?: number
  seed?: number
  /** Operations to leave out, e.g. ones that stream. */
  skip?: (method: string, path: string) => boolean
  /** Called with every request that got a 2xx, e.g. to count them. */
  onAccepted?: (method: string, url: string, status: number) => void
}

export interface FuzzReport {
  requests: number
  /** Requests that sent a non-finite number to a numeric parameter. */
  nonFinite: number
  byStatus: Record<number, number>
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

const weirdString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    'NaN',
    'null',
    'true',
    '[]',
    '{}',
    '../../etc/passwd',
    '%00',
    '\u0000',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '__proto__',
    'constructor',
    '9'.repeat(40),
    'a'.repeat(5000),
    '😀'.repeat(50),
    '2021-02-30',
    '1970-01-01T00:00:00Z',
    'not-a-date',
    '-0',
    '0x10',
    ' 12 '
  )
)
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  weirdString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.constant(Number.MAX_SAFE_INTEGER),
  fc.constant(-1)
)

/** A value of the schema's own type most of the time (to reach deeper rules), otherwise anything. */
function valueFor(schema: JsonSchema | undefined, rnd: () => number): unknown {
  if (rnd() < 0.5) return sample(weirdValue, rnd)
  const type = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type
  switch (type) {
    case 'integer':
      return sample(fc.oneof(fc.integer({ min: -5, max: 100 }), fc.integer()), rnd)
    case 'number':
      return sample(fc.double(), rnd)
    case 'boolean':
      return sample(fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', 'yes', 1, 0)), rnd)
    case 'array':
      return sample(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 5 }), rnd)
    case 'object':
      return objectFor(schema, rnd)
    default:
      return sample(weirdString, rnd)
  }
}

function objectFor(schema: JsonSchema | undefined, rnd: () => number): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    const roll = rnd()
    if (roll < 0.15) continue // leave it out (missing required)
    out[name] = valueFor(prop, rnd)
  }
  if (rnd() < 0.3) out[sample(fc.string({ minLength: 1, maxLength: 10 }), rnd)] = sample(weirdValue, rnd)
  return out
}

function sample<T>(arb: fc.Arbitrary<T>, rnd: () => number): T {
  const [value] = fc.sample(arb, { numRuns: 1, seed: Math.floor(rnd() * 2 ** 31) })
  return value as T
}

function prng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Body = { payload?: string | Buffer; contentType?: string }

function bodyFor(operation: OpenApiOperation, rnd: () => number): Body {
  const content = operation.requestBody?.content ?? {}
  const jsonSchema = content['application/json']?.schema
  const roll = rnd()
  if (content['multipart/form-data'] && roll < 0.4) {
    const boundary = 'fuzzboundary'
    const variants = [
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="x.png"\r\n` +
        `Content-Type: image/png\r\n\r\nnot a png\r\n--${boundary}--\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${'x'.repeat(2000)}`, // truncated
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\n\r\n\xff\xd8\xff`, // truncated file
      `garbage without boundary`,
      `--${boundary}\r\nContent-Disposition: form-data; name="${'n'.repeat(300)}"\r\n\r\nv\r\n--${boundary}--\r\n`
    ]
    return {
      payload: Buffer.from(variants[Math.floor(rnd() * variants.length)] ?? '', 'latin1'),
      contentType: `multipart/form-data; boundary=${boundary}`
    }
  }
  if (roll < 0.5) return { payload: JSON.stringify(objectFor(jsonSchema ?? { properties: {} }, rnd)), contentType: 'application/json' }
  if (roll < 0.6) return { payload: JSON.stringify(sample(fc.jsonValue({ maxDepth: 3 }), rnd)), contentType: 'application/json' }
  if (roll < 0.68)
    return {
      payload: sample(
        fc.constantFrom(
          '{"a":',
          '{',
          '[1,2',
          'nul',
          '{"__proto__":{"admin":true}}',
          '{"constructor":{"prototype":{"x":1}}}',
          '\u0000',
          '"'
        ),
        rnd
      ),
      contentType: 'application/json'
    }
  if (roll < 0.74) return { payload: '', contentType: 'application/json' }
  if (roll < 0.8)
    return {
      payload: sample(weirdString, rnd),
      contentType: sample(
        fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/octet-stream'),
        rnd
      )
    }
  if (roll < 0.84) return { payload: JSON.stringify({ big: 'x'.repeat(1024 * 1024 + 10) }), contentType: 'application/json' }
  if (roll < 0.88) return { payload: JSON.stringify(deepNest(500)), contentType: 'application/json' }
  return {}
}

function deepNest(depth: number): unknown {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = { a: value }
  return value
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  return JSON.stringify(value) ?? 'undefined'
}

function urlFor(path: string, operation: OpenApiOperation, rnd: () => number): string {
  let url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const schema = operation.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema
    const value = rnd() < 0.3 ? String(sample(fc.integer({ min: 1, max: 50 }), rnd)) : textOf(valueFor(schema, rnd))
    return encodeURIComponent(value).slice(0, 600) || '0'
  })
  const query = new URLSearchParams()
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'query' || rnd() < 0.3) continue
    const value = valueFor(parameter.schema, rnd)
    query.append(parameter.name, textOf(value))
  }
  if (rnd() < 0.2) query.append(sample(fc.string({ minLength: 1, maxLength: 8 }), rnd), sample(weirdString, rnd))
  const text = query.toString()
  if (text) url += `?${text}`
  return url
}

async function headersFor(options: FuzzOptions, rnd: () => number): Promise<Record<string, string>> {
  const roll = rnd()
  if (roll < 0.75) return { ...(await options.authHeaders()) }
  if (roll < 0.85) return {}
  const garbage = sample(
    fc.constantFrom(
      'Bearer',
      'Bearer ',
      'Bearer x.y.z',
      'Basic Zm9vOmJhcg==',
      'Bearer eyJhbGciOiJub25lIn0.eyJlbWFpbCI6ImFAYi5jIn0.',
      'a b c d'
    ),
    rnd
  )
  return { authorization: garbage, 'x-ce-key': garbage }
}

/**
 * Throws random and malformed requests at every operation of a service's OpenAPI document and
 * asserts what any client may rely on: no 5xx, every error in the service's error shape, and a
 * rejected write leaves the database exactly as it was.
 */
export async function fuzzService(options: FuzzOptions): Promise<FuzzReport> {
  const doc = options.openapi as OpenApiDocument
  const rnd = prng(options.seed ?? Number(process.env.FUZZ_SEED ?? 20261122))
  const runs = options.runsPerOperation ?? Number(process.env.FUZZ_RUNS ?? 40)
  const report: FuzzReport = { requests: 0, nonFinite: 0, byStatus: {} }
  const operations = Object.entries(doc.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation }))
  )
  assert.ok(operations.length > 0, 'the OpenAPI document lists no operations')

  for (const { path, method, operation } of operations) {
    if (options.skip?.(method, path)) continue
    for (let i = 0; i < runs; i++) {
      const url = urlFor(path, operation, rnd)
      const headers = await headersFor(options, rnd)
      const body = WRITE_METHODS.has(method) || rnd() < 0.1 ? bodyFor(operation, rnd) : {}
      if (body.contentType) headers['content-type'] = body.contentType
      await send(options, report, method, url, headers, body)
    }
    for (const url of nonFiniteUrls(path, operation)) {
      report.nonFinite++
      await send(options, report, method, url, { ...(await options.authHeaders()) }, {}, true)
    }
  }
  return report
}

function isNumeric(schema: JsonSchema | undefined): boolean {
  const types = Array.isArray(schema?.type) ? schema.type : [schema?.type]
  return types.includes('integer') || types.includes('number')
}

/** A plausible value for a parameter, so a request fails on the parameter under test and nothing else. */
function plainValue(schema: JsonSchema | undefined): string {
  if (Array.isArray(schema?.enum) && schema.enum.length > 0) return String(schema.enum[0])
  if (isNumeric(schema)) return String(typeof schema?.minimum === 'number' ? schema.minimum : 1)
  if (schema?.type === 'boolean') return 'true'
  return 'a'
}

/** Every numeric path or query parameter of an operation with each value that parses to no finite number. */
function nonFiniteUrls(path: string, operation: OpenApiOperation): string[] {
  const parameters = (operation.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query')
  const urls: string[] = []
  for (const target of parameters.filter((p) => isNumeric(p.schema))) {
    for (const bad of NON_FINITE) {
      const valueOf = (p: OpenApiParameter) => (p === target ? bad : plainValue(p.schema))
      let url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
        const parameter = parameters.find((p) => p.in === 'path' && p.name === name)
        return encodeURIComponent(parameter ? valueOf(parameter) : 'a')
      })
      const query = new URLSearchParams()
      for (const p of parameters) if (p.in === 'query' && (p.required || p === target)) query.append(p.name, valueOf(p))
      if (query.size > 0) url += `?${query.toString()}`
      urls.push(url)
    }
  }
  return urls
}

/** A request left unanswered this long is a hang (a lock wait, a lost promise): fail naming it. */
const ANSWER_MS = 60_000

async function send(
  options: FuzzOptions,
  report: FuzzReport,
  method: string,
  url: string,
  headers: Record<string, string>,
  body: Body,
  mustReject = false
): Promise<void> {
  const write = WRITE_METHODS.has(method)
  const before = write
    ? await snapshotTables(options.database, options.tablePrefix, [...APPEND_ONLY_TABLES, ...(options.ignoreTables ?? [])])
    : ''
  const response = await withTimeout(
    options.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(body.payload !== undefined ? { payload: body.payload } : {})
    }),
    ANSWER_MS,
    `the answer to ${method} ${url.slice(0, 200)}`
  )
  report.requests++
  report.byStatus[response.statusCode] = (report.byStatus[response.statusCode] ?? 0) + 1
  const sent = body.payload === undefined ? '' : ` body ${JSON.stringify(String(body.payload).slice(0, 300))}`
  const where =
    `${method} ${url.slice(0, 200)} (${headers['content-type'] ?? 'no body'})${sent} → ` +
    `${response.statusCode} ${response.body.slice(0, 300)}`
  assert.ok(response.statusCode < 500, `server error: ${where}`)
  if (mustReject) assert.ok(response.statusCode >= 400, `a non-finite number was accepted: ${where}`)
  if (response.statusCode >= 400) {
    let parsed: unknown
    try {
      parsed = JSON.parse(response.body)
    } catch {
      assert.fail(`error body is not JSON: ${where}`)
    }
    assert.ok(options.isErrorBody(parsed, response.statusCode), `error body has the wrong shape: ${where}`)
    if (write) {
      const after = await snapshotTables(options.database, options.tablePrefix, [...APPEND_ONLY_TABLES, ...(options.ignoreTables ?? [])])
      assert.equal(after, before, `a rejected write changed the database: ${where}`)
    }
  } else {
    options.onAccepted?.(method, url, response.statusCode)
  }
}
