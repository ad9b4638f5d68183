/**
 * The versioned memory read contract (schemaVersion 1): every read ends AVAILABLE, ABSENT or a
 * typed HOLD, within entry/byte/line budgets. Entries are never cut: one that does not fit is
 * deferred with an opaque detail reference instead.
 */
export const MEMORY_SCHEMA_VERSION = 1 as const

export type MemoryConsumer = 'planner' | 'worker' | 'cli' | 'mcp' | 'bot' | 'api' | 'dashboard' | 'desktop'

export interface MemoryReadLimits {
  maxEntries: number
  maxCandidates: number
  maxBytes: number
  maxLines: number
}

export const DEFAULT_READ_LIMITS: MemoryReadLimits = { maxEntries: 20, maxCandidates: 128, maxBytes: 32_768, maxLines: 200 }

/** Budget accounting: a reserve for the envelope, and fixed per-record overheads. */
export const BYTE_RESERVE = 1024
export const LINE_RESERVE = 2
export const ENTRY_BYTE_OVERHEAD = 256
export const ENTRY_LINE_OVERHEAD = 7
export const DEFERRED_BYTE_OVERHEAD = 64

export const HOLD_REASONS = [
  'INVALID_REQUEST',
  'INVALID_LIMITS',
  'TENANT_SCOPE_UNAVAILABLE',
  'CURSOR_INVALID',
  'CURSOR_STALE',
  'QUERY_FAILED',
  'DETAIL_REFERENCE_INVALID',
  'DETAIL_CHANGED',
  'RENDER_LIMIT_EXCEEDED'
] as const
export type HoldReason = (typeof HOLD_REASONS)[number]

export const DEFERRAL_REASONS = ['ENTRY_LIMIT', 'BYTE_LIMIT', 'LINE_LIMIT'] as const
export type DeferralReason = (typeof DEFERRAL_REASONS)[number]

export const ENTRY_REASONS = ['QUERY_MATCH', 'REQUIRED', 'PREFERRED_LATEST', 'CRITICAL'] as const
export type EntryReason = (typeof ENTRY_REASONS)[number]

/** The scope a read runs in, fixed by the verified principal (never by the request). */
export type MemoryScope =
  { kind: 'local-project'; projectId: number; tenantId: string } | { kind: 'tenant'; projectId: number; tenantId: string }

export interface MemoryEntryWire {
  id: number
  type: string
  source: string
  title: string
  content: string
  summary: string | null
  tags: string
  status: string
  priority: string
  sprint_id: string | null
  sprint_num: number | null
  lang: string
  metadata: string
  tenant_id: string
  created_at: string
  updated_at: string
}

export interface MemoryCandidate {
  id: number
  type: string
  source: string
  titlePreview: string
  summaryPreview: string | null
  status: string
  priority: string
  sprintId: string | null
  sprintOrdinal: number | null
  language: string
  tenantId: string
  createdAt: string
  updatedAt: string
  contentByteLength: number
  contentLineCount: number
  recordByteLengthFloor: number
  relevance: number
  candidateDigest: string
}

export interface MemoryReadEntry {
  entry: MemoryEntryWire
  relevance: number
  contentDigest: string
  reasons: EntryReason[]
}
export interface MemoryDeferred {
  candidate: MemoryCandidate
  reasons: EntryReason[]
  reasonCode: DeferralReason
  detailRef: string
}

interface ViewBase {
  consumer: MemoryConsumer
  scope: MemoryScope
  limits: MemoryReadLimits
  selectionRevisionDigest: string
  queryDigest: string
  scopeDigest: string
  limitsDigest: string
}
export interface AvailableView extends ViewBase {
  state: 'AVAILABLE'
  candidates: MemoryCandidate[]
  entries: MemoryReadEntry[]
  deferred: MemoryDeferred[]
  nextCursor: string | null
}
export interface AbsentView extends ViewBase {
  state: 'ABSENT'
  candidates: []
  entries: []
  deferred: []
  nextCursor: null
}
export interface HoldView {
  state: 'HOLD'
  consumer: MemoryConsumer | null
  scope: MemoryScope | null
  reasonCode: HoldReason
  requiredIds: number[]
}
export type MemoryReadView = AvailableView | AbsentView | HoldView

export interface DetailAvailable {
  state: 'AVAILABLE'
  consumer: MemoryConsumer
  scope: MemoryScope
  entry: MemoryEntryWire
  contentDigest: string
}
export type MemoryDetailView = DetailAvailable | HoldView

export function hold(reasonCode: HoldReason, consumer: MemoryConsumer | null, scope: MemoryScope | null): HoldView {
  return { state: 'HOLD', consumer, scope, reasonCode, requiredIds: [] }
}
