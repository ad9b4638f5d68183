/**
 * A map bounded by entry count that drops the least recently used entry (Map iteration order is
 * insertion order, so a hit is moved to the end). Used for prepared statements and verified
 * tokens; the marketplace's rendering cache is bounded by bytes instead and keeps its own.
 */
export interface Lru<K, V> {
  get(key: K): V | undefined
  set(key: K, value: V): void
  delete(key: K): void
  readonly size: number
}

export function createLru<K, V>(maxEntries: number): Lru<K, V> {
  if (!(maxEntries > 0)) throw new Error('createLru: maxEntries must be positive')
  const entries = new Map<K, V>()
  return {
    get(key) {
      const value = entries.get(key)
      if (value === undefined) return undefined
      entries.delete(key)
      entries.set(key, value)
      return value
    },
    set(key, value) {
      entries.delete(key)
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next().value as K | undefined
        if (oldest !== undefined) entries.delete(oldest)
      }
      entries.set(key, value)
    },
    delete(key) {
      entries.delete(key)
    },
    get size() {
      return entries.size
    }
  }
}
