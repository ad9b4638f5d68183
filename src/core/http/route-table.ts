import type { FastifyInstance } from 'fastify'

interface KnownRoute {
  pattern: RegExp
  methods: Set<string>
}

function patternToRegExp(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*'
      if (segment.startsWith(':')) return '[^/]+'
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    })
    .join('/')
  return new RegExp(`^${source}/?$`)
}

/** The path without its query string, exactly as sent. */
export function rawPathOf(url: string): string {
  const end = url.indexOf('?')
  return end === -1 ? url : url.slice(0, end)
}

/**
 * The path as find-my-way matches it: decoded like decodeURI (reserved escapes such as %2F stay
 * encoded), slashes kept as sent. null when it cannot be decoded.
 */
export function routedPathOf(url: string): string | null {
  try {
    return decodeURI(rawPathOf(url))
  } catch {
    return null
  }
}

/**
 * Remembers every route registered after this call (onRoute), so an unmatched request can be
 * told apart: a known path with another method (405 with Allow) or an unknown path (404). A
 * catch-all route (`*`, such as CORS's preflight handler) makes no path known.
 */
export function trackRoutes(app: FastifyInstance) {
  const routes = new Map<string, KnownRoute>()
  app.addHook('onRoute', (route) => {
    if (route.url === '*' || route.url === '/*') return
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    let known = routes.get(route.url)
    if (!known) {
      known = { pattern: patternToRegExp(route.url), methods: new Set() }
      routes.set(route.url, known)
    }
    for (const method of methods) known.methods.add(method.toUpperCase())
  })
  return {
    /**
     * Methods served at this path, sorted; empty when no route matches the path. The path is
     * read as the router reads it, so a spelling the router does not match (`//api/status`,
     * `/api%2Fstatus`) is a 404, not a 405 that names the very method used.
     */
    allowedMethods(url: string): string[] {
      const path = routedPathOf(url)
      if (path === null) return []
      const methods = new Set<string>()
      for (const route of routes.values()) {
        if (route.pattern.test(path)) for (const method of route.methods) methods.add(method)
      }
      return [...methods].sort()
    }
  }
}
export type RouteTable = ReturnType<typeof trackRoutes>
