/**
 * The page's first reads start here, in the entry module, while the app's own code is still being
 * fetched and evaluated; the app's queries then take these answers instead of asking again (each
 * once, and only while fresh). Without a token nothing is asked: the app shows its token prompt.
 */
import { authHeaders, currentToken } from './token'

const FRESH_MS = 10_000

/** What each landing view reads at once, besides the shell's status and approvals. */
const FIRST_READS: Record<string, string[]> = {
  'needs-you': ['/api/tasks'],
  sprint: ['/api/tasks', '/api/limits']
}

const started = new Map<string, { at: number; answer: Promise<Response> }>()

export function prefetchFor(hash: string): void {
  if (currentToken() === null) return
  const view = hash.replace(/^#\/?/, '').split('/')[0] || 'needs-you'
  // The view's own reads first: the server answers in turn, and the shell's are small.
  for (const url of [...(FIRST_READS[view] ?? []), '/api/status', '/api/approvals']) {
    const answer = fetch(url, { headers: { ...authHeaders(), accept: 'application/json' } })
    // A failure is the taker's to handle; an answer nobody takes must not be an unhandled rejection.
    answer.catch(() => undefined)
    started.set(url, { at: performance.now(), answer })
  }
}

/** The answer the entry module already asked for, once; undefined when there is none (or it is stale). */
export function takePrefetched(url: string): Promise<Response> | undefined {
  const entry = started.get(url)
  started.delete(url)
  return entry && performance.now() - entry.at < FRESH_MS ? entry.answer : undefined
}
