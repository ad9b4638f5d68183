/**
 * The versioned RPC envelope (docs/orchestrator.md#rpc): strict request `{id, version, method, params?}`;
 * response always `{id, version: "1.0"}` plus exactly one of `result` or `error {code, message, data?}`.
 */
export const RPC_VERSION = '1.0' as const

/** The seed's codes, then Quartet's (a known request refused for a reason the seed's codes cannot say). */
export const RPC_ERROR_CODES = [
  'VERSION_MISMATCH',
  'UNKNOWN_METHOD',
  'METHOD_NOT_IMPLEMENTED',
  'INVALID_PARAMS',
  'INTERNAL_ERROR',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT'
] as const
export type RpcErrorCode = (typeof RPC_ERROR_CODES)[number]

export interface RpcRequest {
  id: string
  version: string
  method: string
  params?: unknown
}
export interface RpcError {
  code: RpcErrorCode
  message: string
  data?: unknown
}

export class RpcFailure extends Error {
  constructor(
    readonly code: RpcErrorCode,
    message: string,
    readonly data?: unknown
  ) {
    super(message)
    this.name = 'RpcFailure'
  }
}

const ENVELOPE_KEYS = new Set(['id', 'version', 'method', 'params'])

/** The request, or why it is not one (answered 400 `Invalid RPC request: …`). */
export function parseEnvelope(body: unknown): RpcRequest | { invalid: string } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { invalid: 'the body must be a JSON object' }
  const record = body as Record<string, unknown>
  const extra = Object.keys(record).filter((key) => !ENVELOPE_KEYS.has(key))
  if (extra.length > 0) return { invalid: `unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => JSON.stringify(k)).join(', ')}` }
  for (const key of ['id', 'version', 'method'] as const) {
    const value = record[key]
    if (typeof value !== 'string' || value.length === 0) return { invalid: `${key} must be a non-empty string` }
    if (value.length > 200) return { invalid: `${key} is longer than 200 characters` }
  }
  return {
    id: record.id as string,
    version: record.version as string,
    method: record.method as string,
    ...('params' in record ? { params: record.params } : {})
  }
}

export function resultEnvelope(id: string, result: unknown) {
  return { id, version: RPC_VERSION, result }
}

export function errorEnvelope(id: string, error: RpcError) {
  return {
    id,
    version: RPC_VERSION,
    error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) }
  }
}

type FieldRule = { required?: boolean; check: (value: unknown) => string | null }
export type ParamsSpec = Record<string, FieldRule>

export const isString =
  (max = 10_000): FieldRule['check'] =>
  (v) =>
    typeof v === 'string' && v.length > 0 && v.length <= max ? null : `must be a non-empty string of at most ${max} characters`
export const oneOf =
  (values: readonly string[]): FieldRule['check'] =>
  (v) =>
    typeof v === 'string' && values.includes(v) ? null : `must be one of ${values.join(', ')}`
export const stringRecord: FieldRule['check'] = (v) =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string')
    ? null
    : 'must be an object of strings'

/** Strict params: an object (absent means {}) with only the named fields, each passing its rule. */
export function checkParams<T>(params: unknown, spec: ParamsSpec): T {
  const value = params === undefined ? {} : params
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new RpcFailure('INVALID_PARAMS', 'params must be an object', { errors: ['params must be an object'] })
  const record = value as Record<string, unknown>
  const errors: string[] = []
  for (const key of Object.keys(record)) if (!(key in spec)) errors.push(`${key} is not a parameter of this method`)
  for (const [key, rule] of Object.entries(spec)) {
    if (record[key] === undefined) {
      if (rule.required) errors.push(`${key} is required`)
      continue
    }
    const problem = rule.check(record[key])
    if (problem) errors.push(`${key} ${problem}`)
  }
  if (errors.length > 0) throw new RpcFailure('INVALID_PARAMS', `invalid params: ${errors.join('; ')}`, { errors })
  return record as T
}
