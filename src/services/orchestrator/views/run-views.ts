import type { FastifyReply } from 'fastify'
import type { RunControl } from '../engine/run-control.js'
import type { OrchestratorRepositories } from '../state/repositories.js'
import { createRenderedPages } from './rendered-pages.js'

/** Renderings hold ages and "now" (heartbeat age, run duration, updatedAt): re-rendered at least this often. */
export const VIEW_MAX_AGE_MS = 1000
const MAX_VIEWS = 64

export interface RunViewsDeps {
  projectId: number
  repositories: OrchestratorRepositories
  runControl: RunControl
  clock: () => Date
}

/**
 * Cached renderings of the hot read views over the run (status, sprint, live view, tasks,
 * workers), so a poll costs one prepared, indexed query instead of a reconcile and a dozen more.
 *
 * The revision is read from the database (state/views.repository.ts), because the detached
 * job process writes the run from outside this process. It is made of values that the writes a
 * view shows raise or change: the newest event, the newest sprint's row (status, times, usage),
 * its newest task change, the newest attempt, the active job row (id, status, pid, liveness
 * stamp) and its heartbeat sequences. A view rendered after reading revision R is served only
 * to requests that read R again, and only for VIEW_MAX_AGE_MS, so
 *
 * - after a write commits, the next request reads a new revision and renders again;
 * - a rendering may hold a write newer than R (made while it rendered), but such a write
 *   changed the revision, so only requests that read R before it committed can get it;
 * - a write outside those values (e.g. an attempt's model reported with no usage) still shows
 *   within VIEW_MAX_AGE_MS.
 *
 * Reconcile semantics are kept: each request checks the active job it read with the revision
 * (kill(pid, 0), and its last sign of life against the clock: see runControl.jobNeedsReconcile);
 * when the job is dead it reconciles and reads the revision again, so a dead job is ORPHANED on
 * the next read of any of these views.
 */
export function createRunViews(deps: RunViewsDeps) {
  const repos = deps.repositories
  const pages = createRenderedPages({
    maxAgeMs: VIEW_MAX_AGE_MS,
    maxEntries: MAX_VIEWS,
    now: () => deps.clock().getTime()
  })

  async function readRevision(): Promise<string> {
    const read = await repos.views.revisionOf(deps.projectId)
    if (!read.activeJob || !deps.runControl.jobNeedsReconcile(read.activeJob)) return read.revision
    await deps.runControl.reconcile(deps.projectId)
    return (await repos.views.revisionOf(deps.projectId)).revision
  }

  // Requests that arrive together share one revision read. It starts only after all of them
  // arrived (on the next turn of the event loop), so it sees every write committed before any
  // of them: as fresh as reading it per request, at a fraction of the queries under load.
  let next: Promise<string> | undefined
  function revision(): Promise<string> {
    next ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      next = undefined
      return readRevision()
    })
    return next
  }

  return {
    revision,

    /**
     * Sends view `key` as the route's 200 answer: the cached bytes at the current revision, or
     * `render()` serialised by the route's own response schema (the bytes Fastify would send).
     */
    async send(reply: FastifyReply, key: string, render: () => Promise<unknown>): Promise<FastifyReply> {
      return pages.send(reply, key, await revision(), render)
    },

    /** Views held (tests, diagnostics). */
    get size(): number {
      return pages.size
    }
  }
}
export type RunViews = ReturnType<typeof createRunViews>
