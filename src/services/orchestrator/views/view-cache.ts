/**
 * Rendered read views (the JSON bytes), one per view key, each with the revision it was
 * rendered under. See run-views.ts for what a revision is and why a hit is never stale.
 */

export interface ViewCacheOptions {
  /** A rendering older than this is rendered again even at the same revision (it holds ages and "now"). */
  maxAgeMs: number
  /** View keys kept (a query parameter can make many, e.g. /api/tasks?sprint=); the oldest go first. */
  maxEntries: number
  /** Milliseconds of the service clock, so a test that moves its clock ages the renderings too. */
  now: () => number
}

interface Rendering {
  revision: string
  renderedAt: number
  /** Order in which renderings started: a slow, older rendering never replaces a newer one. */
  order: number
  body: Buffer
}

export function createViewCache(options: ViewCacheOptions) {
  const entries = new Map<string, Rendering>()
  // Requests that find the same key and revision missing wait for one rendering instead of each doing it.
  const inFlight = new Map<string, { revision: string; body: Promise<Buffer> }>()
  let started = 0

  function fresh(entry: Rendering | undefined, revision: string, now: number): entry is Rendering {
    return entry !== undefined && entry.revision === revision && now >= entry.renderedAt && now - entry.renderedAt < options.maxAgeMs
  }

  function store(key: string, rendering: Rendering): void {
    const current = entries.get(key)
    if (current && current.order > rendering.order) return
    entries.delete(key)
    entries.set(key, rendering)
    for (const oldest of entries.keys()) {
      if (entries.size <= options.maxEntries) break
      entries.delete(oldest)
    }
  }

  return {
    /**
     * The body of view `key` at `revision`: the cached one while it is fresh, else `render()`
     * (shared with concurrent callers at the same revision), stored for the next callers.
     * `revision` must have been read before anything `render` reads.
     */
    async get(key: string, revision: string, render: () => Promise<Buffer>): Promise<Buffer> {
      const now = options.now()
      const entry = entries.get(key)
      if (fresh(entry, revision, now)) return entry.body
      const pending = inFlight.get(key)
      if (pending && pending.revision === revision) return pending.body
      const order = ++started
      const body = render()
      const flight = { revision, body }
      inFlight.set(key, flight)
      try {
        const rendered = await body
        store(key, { revision, renderedAt: now, order, body: rendered })
        return rendered
      } finally {
        if (inFlight.get(key) === flight) inFlight.delete(key)
      }
    },

    /** Views held (tests, diagnostics). */
    get size(): number {
      return entries.size
    }
  }
}
export type ViewCache = ReturnType<typeof createViewCache>
