/**
 * The audit log's HMAC chain: each record's hmac is HMAC-SHA256(key, prevHmac + "\n" + its fields
 * in a fixed order), and prevHmac is the hmac of the record before it (a fixed genesis value for
 * the first). Editing, deleting or reordering any record breaks the chain at that record.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { AuditRecord } from '../../state/audit.repository.js'

export const AUDIT_CHAIN_VERSION = 1
export const GENESIS_HMAC = `quartet-audit-genesis-${'0'.repeat(40)}`

export type AuditFields = Omit<AuditRecord, 'prevHmac' | 'hmac'>

function canonical(projectId: number, r: AuditFields): string {
  return JSON.stringify([
    AUDIT_CHAIN_VERSION,
    projectId,
    r.seq,
    r.createdAt,
    r.tenantId,
    r.actor,
    r.action,
    r.target,
    r.result,
    r.gate,
    r.status,
    r.detail
  ])
}

export function chainHmac(key: Uint8Array, projectId: number, prevHmac: string, fields: AuditFields): string {
  return createHmac('sha256', key).update(prevHmac).update('\n').update(canonical(projectId, fields)).digest('hex')
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

export type ChainBreak = { seq: number; reason: 'missing' | 'reordered' | 'tampered' }

/** Checks records in seq order, continuing from `previous`; the first break, or null. */
export function checkLinks(
  key: Uint8Array,
  projectId: number,
  previous: { seq: number; hmac: string },
  records: readonly AuditRecord[]
): ChainBreak | null {
  let prev = previous
  for (const record of records) {
    if (record.seq !== prev.seq + 1) return { seq: prev.seq + 1, reason: 'missing' }
    if (!sameHex(record.prevHmac, prev.hmac)) return { seq: record.seq, reason: 'reordered' }
    const { prevHmac: _p, hmac: _h, ...fields } = record
    if (!sameHex(chainHmac(key, projectId, record.prevHmac, fields), record.hmac)) return { seq: record.seq, reason: 'tampered' }
    prev = { seq: record.seq, hmac: record.hmac }
  }
  return null
}
