/**
 * Access is declared on each route (`config: { access }`) and enforced here, in one onRequest
 * hook, after the rate limit and CORS gates. A route registered without a declaration stops the
 * server from starting (fail closed); test/services/orchestrator/gates/route-access.test.ts walks
 * the route table and checks every mutating route's declaration.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { orchestratorError } from '../errors.js'
import type { Principal } from '../principal.js'
import { isLoopbackAddress } from '../runtime/loopback.js'
import { checkBearer, type AuthGateOptions } from './bearer.js'
import { isApiPath } from './paths.js'

export interface RouteAccess {
  /** `public`: anyone; `bearer`: a verified caller; `admin`: a verified caller with the admin role. */
  caller: 'public' | 'bearer' | 'admin'
  /** A control mutation: refused to API callers while api.control_mutations is off. */
  control?: boolean
  /** Served to loopback callers only. */
  loopbackOnly?: boolean
  /** A GET stream that also takes the token as `?token=` (EventSource cannot send headers). */
  queryToken?: boolean
}

export const ACCESS = {
  public: { caller: 'public' },
  /** Reads, and writes that only record a request for a human (approval requests). */
  bearer: { caller: 'bearer' },
  stream: { caller: 'bearer', queryToken: true },
  control: { caller: 'bearer', control: true },
  admin: { caller: 'admin' }
} as const satisfies Record<string, RouteAccess>

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Orchestrator routes: who may call (see gates/route-access.ts). */
    access?: RouteAccess
  }
}

export interface AccessGateOptions {
  auth: AuthGateOptions
  /** The caller a verified bearer stands for. */
  principal: Principal
  /** Throws the control-mutation refusal when the switch is off (read per request). */
  assertControl(principal: Principal): void
  /** Route prefixes registered by plugins the orchestrator does not write (the API docs): public. */
  publicPrefixes: readonly string[]
}

const CALLER = Symbol('orchestrator caller')
type WithCaller = FastifyRequest & { [CALLER]?: Principal }

/** The verified caller of a request that passed the access gate. */
export function callerOf(request: FastifyRequest): Principal {
  const caller = (request as WithCaller)[CALLER]
  if (!caller) throw new Error(`route ${request.routeOptions.url ?? request.url} has no caller: it is not behind a bearer access rule`)
  return caller
}

export interface DeclaredRoute {
  method: string
  url: string
  access: RouteAccess
}

const declared = new WeakMap<FastifyInstance, DeclaredRoute[]>()

/** Every route of an app with its declared access, in registration order (the route-walk test reads it). */
export function accessTableOf(app: FastifyInstance): readonly DeclaredRoute[] {
  return declared.get(app) ?? []
}

/** Every route must declare its access; routes of the docs plugin are public. */
export function requireAccessDeclarations(app: FastifyInstance, publicPrefixes: readonly string[]): void {
  const table: DeclaredRoute[] = []
  declared.set(app, table)
  const record = (method: string | string[], url: string, access: RouteAccess) => {
    for (const one of Array.isArray(method) ? method : [method]) table.push({ method: one, url, access })
  }
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { access?: RouteAccess }
    if (config.access) {
      record(route.method, route.url, config.access)
      return
    }
    if (publicPrefixes.some((prefix) => route.url === prefix || route.url.startsWith(`${prefix}/`) || route.url.startsWith(`${prefix}.`))) {
      route.config = { ...route.config, access: ACCESS.public }
      record(route.method, route.url, ACCESS.public)
      return
    }
    const methods = Array.isArray(route.method) ? route.method.join(',') : route.method
    throw new Error(`orchestrator route ${methods} ${route.url} declares no access (config.access): every route must say who may call it`)
  })
}

/**
 * The access gate: for a route, its declaration; for a request no route matches, an `/api/` path
 * needs a bearer (unknown paths do not tell a stranger what exists) and anything else is public.
 */
export function registerAccessGate(app: FastifyInstance, options: AccessGateOptions): void {
  requireAccessDeclarations(app, options.publicPrefixes)
  app.addHook('onRequest', async (request) => {
    const declared = request.routeOptions.config?.access
    const access: RouteAccess = declared ?? (isApiPath(request.url) ? ACCESS.bearer : ACCESS.public)
    if (access.loopbackOnly && !isLoopbackAddress(request.raw.socket?.remoteAddress)) {
      throw orchestratorError('FORBIDDEN', 'This route answers loopback callers only.')
    }
    if (access.caller === 'public') return
    const method = request.method
    const decision = checkBearer(
      options.auth,
      request.headers.authorization,
      access.queryToken === true && (method === 'GET' || method === 'HEAD') ? request.url : null
    )
    if (!decision.ok) throw orchestratorError(decision.status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN', decision.error)
    const caller = options.principal
    if (access.caller === 'admin' && caller.role !== 'admin') throw orchestratorError('FORBIDDEN', 'This route needs the admin role.')
    if (access.control) options.assertControl(caller)
    ;(request as WithCaller)[CALLER] = caller
  })
}
