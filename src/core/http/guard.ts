import type { FastifyRequest } from 'fastify'

/**
 * A per-route authentication guard with a typed result: routes that need a caller list
 * `guard.check` in their onRequest hooks and read the caller with `guard.of(request)` — no
 * program-wide FastifyRequest augmentation, no casts.
 */
export interface Guard<T> {
  check(request: FastifyRequest): Promise<void>
  /** The caller the guard resolved for this request; throws when the route has no such guard. */
  of(request: FastifyRequest): T
}

export function createGuard<T>(name: string, resolve: (request: FastifyRequest) => Promise<T>): Guard<T> {
  const callers = new WeakMap<FastifyRequest, T>()
  return {
    async check(request) {
      callers.set(request, await resolve(request))
    },
    of(request) {
      if (!callers.has(request)) throw new Error(`route ${request.routeOptions.url ?? request.url} reads the ${name} caller but has no ${name} guard`)
      return callers.get(request) as T
    }
  }
}
