/** Wire schemas of the memory routes (also the OpenAPI document of the versioned read contract). */
import { Type } from 'typebox'
import { DEFERRAL_REASONS, ENTRY_REASONS, HOLD_REASONS } from './contract.js'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])
const Literals = <T extends readonly string[]>(values: T) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values] })

const Scope = Type.Object({ kind: Literals(['local-project', 'tenant']), projectId: Type.Integer(), tenantId: Type.String() })
const Limits = Type.Object({
  maxEntries: Type.Integer(),
  maxCandidates: Type.Integer(),
  maxBytes: Type.Integer(),
  maxLines: Type.Integer()
})

export const MemoryEntry = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  source: Type.String(),
  title: Type.String(),
  content: Type.String(),
  summary: Nullable(Type.String()),
  tags: Type.String(),
  status: Type.String(),
  priority: Type.String(),
  sprint_id: Nullable(Type.String()),
  sprint_num: Nullable(Type.Integer()),
  lang: Type.String(),
  metadata: Type.String({ description: 'JSON object as text' }),
  tenant_id: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String()
})

const Candidate = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  source: Type.String(),
  titlePreview: Type.String(),
  summaryPreview: Nullable(Type.String()),
  status: Type.String(),
  priority: Type.String(),
  sprintId: Nullable(Type.String()),
  sprintOrdinal: Nullable(Type.Integer()),
  language: Type.String(),
  tenantId: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  contentByteLength: Type.Integer(),
  contentLineCount: Type.Integer(),
  recordByteLengthFloor: Type.Integer(),
  relevance: Type.Number(),
  candidateDigest: Type.String()
})
const Reasons = Type.Array(Literals(ENTRY_REASONS))
const ReadEntry = Type.Object({ entry: MemoryEntry, relevance: Type.Number(), contentDigest: Type.String(), reasons: Reasons })
const Deferred = Type.Object({ candidate: Candidate, reasons: Reasons, reasonCode: Literals(DEFERRAL_REASONS), detailRef: Type.String() })

const Digests = {
  consumer: Type.String(),
  scope: Scope,
  limits: Limits,
  selectionRevisionDigest: Type.String(),
  queryDigest: Type.String(),
  scopeDigest: Type.String(),
  limitsDigest: Type.String()
}
export const HoldView = Type.Object({
  state: Type.Literal('HOLD'),
  consumer: Nullable(Type.String()),
  scope: Nullable(Scope),
  reasonCode: Literals(HOLD_REASONS),
  requiredIds: Type.Array(Type.Integer())
})
const AvailableView = Type.Object({
  state: Type.Literal('AVAILABLE'),
  ...Digests,
  candidates: Type.Array(Candidate),
  entries: Type.Array(ReadEntry),
  deferred: Type.Array(Deferred),
  nextCursor: Nullable(Type.String())
})
const AbsentView = Type.Object({
  state: Type.Literal('ABSENT'),
  ...Digests,
  candidates: Type.Array(Candidate, { maxItems: 0 }),
  entries: Type.Array(ReadEntry, { maxItems: 0 }),
  deferred: Type.Array(Deferred, { maxItems: 0 }),
  nextCursor: Type.Null()
})
export const ReadView = Type.Union([AvailableView, AbsentView, HoldView])

export const SearchBody = Type.Object({ schemaVersion: Type.Literal(1), view: ReadView })
export const LegacySearchBody = Type.Array(Type.Object({ entry: MemoryEntry, relevance: Type.Number() }))
export const LegacyHeldBody = Type.Object({ error: Type.String({ description: 'the HOLD reason code' }), view: HoldView })
export const ErrorBody = Type.Object({ error: Type.String() })

const DetailAvailable = Type.Object({
  state: Type.Literal('AVAILABLE'),
  consumer: Type.String(),
  scope: Scope,
  entry: MemoryEntry,
  contentDigest: Type.String()
})
export const DetailBody = Type.Object({ schemaVersion: Type.Literal(1), detail: Type.Union([DetailAvailable, HoldView]) })

export const ProjectionBody = Type.Object({ content: Type.String(), schemaVersion: Type.Literal(1), view: ReadView })

// A repeated parameter arrives as an array; the read answers it with a HOLD, so it must pass validation.
const Param = (description: string) => Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description }))
export const SearchQuery = Type.Object({
  v: Param('1 for the versioned view; absent for the legacy array'),
  q: Param('words to match (full-text; letters and digits)'),
  type: Param('comma-separated entry types'),
  status: Param('comma-separated statuses'),
  sprint_min: Param('lowest sprint number (non-negative integer)'),
  mode: Param('and | or (default or): whether every word or any word must match'),
  limit: Param('at most this many entries (positive integer, capped by the budget)'),
  cursor: Param('nextCursor of the previous page')
})
export const DetailQuery = Type.Object({ v: Param('1'), ref: Param('a detailRef from a search answer') })
