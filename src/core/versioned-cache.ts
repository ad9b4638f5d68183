import { createLru, type Lru } from './lru.js'

export interface VersionedCacheOptions<V, Version> {
  /** Values kept; past it the least recently used tenth goes at once (so eviction stays rare). */
  maxEntries?: number
  /** Total `sizeOf` of the values kept; past it the least recently used go. A value over a quarter of it is not kept. */
  maxBytes?: number
  sizeOf?: (value: V) => number
  /** A value computed this long ago is computed again even at the same version (it holds ages or "now"). */
  maxAgeMs?: number
  /** Milliseconds of the service clock, so a test that moves its clock ages the values too (default Date.now). */
  now?: () => number
  /**
   * For versions that only grow: a kept value at a lower version than the caller's is dropped at
   * once (it can never be current again), and one at a higher version is never replaced by a
   * computation at a lower one. Without it, versions are opaque and the order in which
   * computations started decides.
   */
  compareVersions?: (a: Version, b: Version) => number
  /** The version a value was computed at, when the computation read it with its data (default: the caller's, read before). */
  versionOf?: (value: V) => Version
  /** A value for which this is false (a failed read) is shared with the callers waiting for it but not kept. */
  keep?: (value: V) => boolean
  /**
   * Keep a value only from the second computation of its key on (among the last 16 × maxEntries
   * keys computed), so a stream of one-off keys does not evict the values that are read again.
   */
  keepFromSecondComputation?: boolean
}

export interface VersionedCache<V, Version> {
  /**
   * The value of `key` at `version`: the kept one while it is fresh, else `compute()` (shared with
   * the callers that ask for the same key and version meanwhile), kept for the next callers.
   * `version` must have been read before anything `compute` reads.
   */
  get(key: string, version: Version, compute: () => Promise<V>): Promise<V>
  /** Measures the kept value of `key` again after it grew (an encoding added to it); ignored unless `value` is the one kept. */
  resized(key: string, value: V): void
  /** Values kept (tests, diagnostics). */
  readonly size: number
  /** Values and their total size kept (tests, diagnostics). */
  stats(): { entries: number; bytes: number }
}

/** A computation callers of the same key and version share; `value` is dropped once it settled (see `get`). */
interface Flight<V, Version> {
  version: Version
  value: Promise<V> | null
}

interface Entry<V, Version> {
  value: V
  version: Version
  computedAt: number
  /** Order in which computations started. */
  order: number
  bytes: number
  /** Use stamp: a hit only writes it; eviction sorts by it (cheaper than reordering the Map on every hit). */
  used: number
}

/**
 * Values computed from the database, each kept with the version of the data it was computed at.
 *
 * A caller first reads the current version (one cheap, indexed query: a counter or a revision
 * that every write raising it changes in its own transaction), then asks for the value at that
 * version. A kept value is served only while it was computed at exactly that version, so:
 *
 * - after a write commits, every later caller reads the new version and misses: never stale,
 *   whichever process made the write (the version lives in the shared database);
 * - data read after the version may only be newer than it (a write that committed meanwhile), and
 *   such a value can only be served to callers that read the old version, i.e. that ran
 *   concurrently with that write.
 *
 * Callers that miss the same key at the same version wait for one computation; a computation
 * that started earlier (or, with `compareVersions`, at an older version) never replaces a newer
 * value; values are bounded by count and/or bytes, least recently used first out.
 */
export function createVersionedCache<V, Version extends string | number>(
  options: VersionedCacheOptions<V, Version>
): VersionedCache<V, Version> {
  const { maxEntries = Infinity, maxBytes = Infinity, maxAgeMs, compareVersions } = options
  if (!(maxEntries >= 0) || !(maxBytes >= 0)) throw new Error('createVersionedCache: bounds must not be negative')
  if (maxBytes !== Infinity && !options.sizeOf) throw new Error('createVersionedCache: maxBytes needs sizeOf')
  if (options.keepFromSecondComputation && !(maxEntries > 0 && maxEntries !== Infinity)) {
    throw new Error('createVersionedCache: keepFromSecondComputation needs a finite maxEntries')
  }
  const now = options.now ?? Date.now
  // Past maxEntries, a tenth goes at once (counting the value just stored).
  const entriesAfterEviction = maxEntries === Infinity ? Infinity : maxEntries + 1 - Math.ceil(maxEntries / 10)
  const entries = new Map<string, Entry<V, Version>>()
  const inFlight = new Map<string, Flight<V, Version>>()
  const seen: Lru<string, true> | null = options.keepFromSecondComputation ? createLru(maxEntries * 16) : null
  let bytes = 0
  let uses = 0
  let started = 0

  function remove(key: string): void {
    const entry = entries.get(key)
    if (entry === undefined) return
    entries.delete(key)
    bytes -= entry.bytes
  }

  function evict(): void {
    if (entries.size <= maxEntries && bytes <= maxBytes) return
    const target = entries.size > maxEntries ? entriesAfterEviction : entries.size
    const byUse = [...entries].sort(([, a], [, b]) => a.used - b.used)
    for (const [key] of byUse) {
      if (entries.size <= target && bytes <= maxBytes) break
      remove(key)
    }
  }

  /** Whether `current` should stay rather than be replaced by a value computed at `version`, started as `order`. */
  function keepsCurrent(current: Entry<V, Version>, version: Version, order: number): boolean {
    const byVersion = compareVersions ? compareVersions(current.version, version) : 0
    return byVersion !== 0 ? byVersion > 0 : current.order > order
  }

  function store(key: string, value: V, callerVersion: Version, computedAt: number, order: number): void {
    if (options.keep && !options.keep(value)) return
    if (seen !== null) {
      if (seen.get(key) === undefined) {
        seen.set(key, true)
        return
      }
    }
    const version = options.versionOf ? options.versionOf(value) : callerVersion
    const current = entries.get(key)
    if (current !== undefined && keepsCurrent(current, version, order)) return
    remove(key)
    const size = options.sizeOf ? options.sizeOf(value) : 0
    if (maxEntries === 0 || maxBytes === 0 || size > maxBytes / 4) return
    entries.set(key, { value, version, computedAt, order, bytes: size, used: ++uses })
    bytes += size
    evict()
  }

  return {
    async get(key, version, compute) {
      const at = maxAgeMs === undefined ? 0 : now()
      const entry = entries.get(key)
      if (entry !== undefined) {
        if (entry.version === version && (maxAgeMs === undefined || (at >= entry.computedAt && at - entry.computedAt < maxAgeMs))) {
          entry.used = ++uses
          return entry.value
        }
        if (compareVersions && compareVersions(entry.version, version) < 0) remove(key)
      }
      const pending = inFlight.get(key)
      if (pending !== undefined && pending.version === version && pending.value !== null) return pending.value
      const order = ++started
      const computing = compute()
      const flight: Flight<V, Version> = { version, value: computing }
      inFlight.set(key, flight)
      try {
        const value = await computing
        store(key, value, version, at, order)
        return value
      } finally {
        if (inFlight.get(key) === flight) inFlight.delete(key)
        // A settled flight must not lead to its value: with a flight per request (a stream of different keys), V8's
        // Map kept the flights it once held reachable for its young-generation collections, and each value (a
        // 50 KB memory page) was promoted and left for a full collection: ~1 MB per scavenge, a tenth of a search's
        // CPU (measured on the memory search bench; 2026-11-28).
        flight.value = null
      }
    },

    resized(key, value) {
      const entry = entries.get(key)
      if (entry === undefined || entry.value !== value || !options.sizeOf) return
      bytes -= entry.bytes
      entry.bytes = options.sizeOf(value)
      bytes += entry.bytes
      evict()
    },

    get size() {
      return entries.size
    },

    stats: () => ({ entries: entries.size, bytes })
  }
}
