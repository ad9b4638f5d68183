/** Pure rules of the scheduler: which tasks may run side by side, retry backoff. */

/** The fixed part of a path pattern: `dir/**`, `dir/*` and `dir/x*.ts` all cover everything under `dir/`. */
function scopePrefix(pattern: string): { prefix: string; isDir: boolean } {
  const clean = pattern.replace(/^\.\//, '')
  const glob = clean.search(/[*?[{]/)
  if (glob >= 0) return { prefix: clean.slice(0, clean.lastIndexOf('/', glob) + 1), isDir: true }
  return clean.endsWith('/') ? { prefix: clean, isDir: true } : { prefix: clean, isDir: false }
}

/** True when two file scopes may touch the same file; an empty scope may touch anything. */
export function scopesOverlap(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return true
  return a.some((x) =>
    b.some((y) => {
      const p = scopePrefix(x)
      const q = scopePrefix(y)
      if (p.isDir && q.isDir) return p.prefix.startsWith(q.prefix) || q.prefix.startsWith(p.prefix)
      if (p.isDir) return q.prefix.startsWith(p.prefix)
      if (q.isDir) return p.prefix.startsWith(q.prefix)
      return p.prefix === q.prefix
    })
  )
}

/** Exponential backoff (×2 per retry) with ±20 % jitter, so retrying workers do not hit a provider in step. */
export function retryDelayMs(baseMs: number, retry: number, random: () => number = Math.random): number {
  return Math.round(baseMs * 2 ** (retry - 1) * (0.8 + 0.4 * random()))
}
