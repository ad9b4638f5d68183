/**
 * Appends to and verifies the audit chain. Appends of one process are queued (one link at a
 * time); the repository's transaction and unique seq keep two processes from forking the chain.
 */
import type { AuditRecord, AuditRepository } from '../../state/audit.repository.js'
import { chainHmac, checkLinks, GENESIS_HMAC, type ChainBreak } from './audit-chain.js'

export interface AuditEntry {
  tenantId: string
  actor: string
  action: string
  target: string | null
  result: AuditRecord['result']
  gate: AuditRecord['gate']
  status: number
  detail: Record<string, unknown>
}

export interface AuditVerification {
  ok: boolean
  records: number
  firstBroken: ChainBreak | null
}

const PAGE = 1000

export function createAuditService(deps: { repository: AuditRepository; projectId: number; key: () => Uint8Array; clock: () => Date }) {
  let tail: Promise<unknown> = Promise.resolve()
  return {
    append(entry: AuditEntry): Promise<AuditRecord> {
      const run = () =>
        deps.repository.append(deps.projectId, (head) => {
          const fields = { ...entry, seq: (head?.seq ?? 0) + 1, createdAt: deps.clock().toISOString() }
          const prevHmac = head?.hmac ?? GENESIS_HMAC
          return { ...fields, prevHmac, hmac: chainHmac(deps.key(), deps.projectId, prevHmac, fields) }
        })
      const next = tail.then(run, run)
      tail = next.catch(() => undefined)
      return next
    },

    list: (filter: { tenantId?: string; action?: string; limit: number }) => deps.repository.list(deps.projectId, filter),

    /** Walks the whole chain from genesis; the first missing, reordered or tampered record. */
    async verify(): Promise<AuditVerification> {
      let previous = { seq: 0, hmac: GENESIS_HMAC }
      let records = 0
      for (;;) {
        const page = await deps.repository.page(deps.projectId, previous.seq, PAGE)
        if (page.length === 0) return { ok: true, records, firstBroken: null }
        const broken = checkLinks(deps.key(), deps.projectId, previous, page)
        if (broken) return { ok: false, records: records + page.filter((r) => r.seq < broken.seq).length, firstBroken: broken }
        records += page.length
        const last = page[page.length - 1] as AuditRecord
        previous = { seq: last.seq, hmac: last.hmac }
      }
    }
  }
}
export type AuditService = ReturnType<typeof createAuditService>
