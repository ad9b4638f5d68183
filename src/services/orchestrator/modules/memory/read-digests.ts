import { createLru, type Lru } from '../../../../core/lru.js'
import { digestOf } from './canonical.js'
import type { MemoryReadLimits, MemoryScope } from './contract.js'

/**
 * The digests of a read's scope and limits. They repeat from request to request: canonical JSON and a hash each were
 * ~3 % of a search, so they are kept by their fields, and consecutive reads (which mostly share both) check the last
 * ones first, with no key string to build and hash. Only the query's digest is new per query.
 */
export function createReadDigests() {
  const scopeDigests = createLru<string, string>(1024)
  const limitsDigests = createLru<string, string>(64)
  let lastScope: { scope: MemoryScope; digest: string } | null = null
  let lastLimits: { limits: MemoryReadLimits; digest: string } | null = null

  const remembered = (known: Lru<string, string>, key: string, make: () => string) => {
    let value = known.get(key)
    if (value === undefined) known.set(key, (value = make()))
    return value
  }

  function scopeDigestOf(scope: MemoryScope): string {
    const known = lastScope?.scope
    if (known?.kind === scope.kind && known.projectId === scope.projectId && known.tenantId === scope.tenantId) return lastScope!.digest
    const shown = { kind: scope.kind, projectId: scope.projectId, tenantId: scope.tenantId }
    const digest = remembered(scopeDigests, `${scope.kind}\n${scope.projectId}\n${scope.tenantId}`, () => digestOf(shown))
    lastScope = { scope: shown, digest }
    return digest
  }

  function limitsDigestOf(limits: MemoryReadLimits): string {
    const known = lastLimits?.limits
    if (
      known?.maxEntries === limits.maxEntries &&
      known.maxCandidates === limits.maxCandidates &&
      known.maxBytes === limits.maxBytes &&
      known.maxLines === limits.maxLines
    )
      return lastLimits!.digest
    const shown = {
      maxEntries: limits.maxEntries,
      maxCandidates: limits.maxCandidates,
      maxBytes: limits.maxBytes,
      maxLines: limits.maxLines
    }
    const digest = remembered(limitsDigests, `${limits.maxEntries}\n${limits.maxCandidates}\n${limits.maxBytes}\n${limits.maxLines}`, () =>
      digestOf(shown)
    )
    lastLimits = { limits: shown, digest }
    return digest
  }

  return { scopeDigestOf, limitsDigestOf }
}
