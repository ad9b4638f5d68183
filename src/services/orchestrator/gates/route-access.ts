/**
 * Access is declared on each route (`config: { access }`) and enforced here, in one onRequest
 * hook, after the rate limit and CORS gates. A route registered without a declaration stops the
 * server from starting (fail closed); test/services/orchestrator/gates/route-access.test.ts walks
 * the route table and checks every mutating route's declaration.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { orchestratorError } from '../errors.js'
import { BUILT_IN_PERMISSIONS, isBuiltInRole, type Principal } from '../principal.js'
import { isLoopbackAddress } from '../runtime/loopback.js'
import { authenticate, bearerToken, type AuthGateOptions, type OidcBearer } from './bearer.js'
import { isApiPath } from './paths.js'

export interface RouteAccess {
  /**
   * `public`: anyone; `bearer`: a verified caller; `admin`: a verified caller with the admin role;
   * `terminal`: the terminal token, never the API token (the two gates are disjoint).
   */
  caller: 'public' | 'bearer' | 'admin' | 'terminal'
  /** A control mutation: refused to API callers while api.control_mutations is off. */
  control?: boolean
  /** Served to loopback callers only. */
  loopbackOnly?: boolean
  /** A GET stream that also takes the token as `?token=` (EventSource cannot send headers). */
  queryToken?: boolean
  /** A feature flag the route needs; off, the route answers as if absent (checked before the control gate). */
  feature?: string
  /** The RBAC permission the caller needs; default: `admin` / `execute` (control) / `read` (GET) / `write`. */
  permission?: string
  /** Served to a caller without a tenant claim even under strict_tenant_isolation (it says who the caller is). */
  anyTenant?: boolean
  /** A read recorded in the audit log (who looked at what). */
  sensitive?: boolean
  /** The API token itself, even where auth is disabled or no token is configured (fail closed). */
  strictBearer?: boolean
  /** A WebSocket upgrade: the handler authenticates (so it can answer with a close code). */
  socket?: boolean
}

export const ACCESS = {
  public: { caller: 'public' },
  /** Reads, and writes that only record a request for a human (approval requests). */
  bearer: { caller: 'bearer' },
  stream: { caller: 'bearer', queryToken: true },
  control: { caller: 'bearer', control: true },
  admin: { caller: 'admin' },
  /** GET /api/auth/me: any verified caller, whatever its tenant. */
  identity: { caller: 'bearer', anyTenant: true },
  /** Reads of administrative records (enterprise views): audited. */
  sensitiveRead: { caller: 'bearer', sensitive: true },
  /** Administrative writes (enterprise): the admin permission; audited like every write. */
  adminRead: { caller: 'admin', sensitive: true },
  /** GET /api/terminal/token: a loopback caller holding the real API token. */
  terminalBootstrap: { caller: 'bearer', loopbackOnly: true, strictBearer: true },
  terminal: { caller: 'terminal' },
  terminalSocket: { caller: 'terminal', socket: true }
} as const satisfies Record<string, RouteAccess>

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Orchestrator routes: who may call (see gates/route-access.ts). */
    access?: RouteAccess
  }
}

export interface AccessGateOptions {
  auth: AuthGateOptions
  /** The caller the API token stands for (the project owner). */
  principal: Principal
  /** The OIDC bearer verifier in force (api_oidc, read per request); absent: API token only. */
  oidc?: () => OidcBearer
  /** Permissions of role names (custom roles included), resolved per request; default: the built-in matrix. */
  permissionsOf?: (roles: readonly string[]) => Promise<ReadonlySet<string>>
  /** strict_tenant_isolation (read per request). */
  strictTenant?: () => boolean
  /** Throws the control-mutation refusal when the switch is off (read per request). */
  assertControl(principal: Principal): void
  /** Throws (a 404 naming the flag) while a route's feature flag is off. */
  assertFeature?(feature: string): void
  /** Route prefixes registered by plugins the orchestrator does not write (the API docs): public. */
  publicPrefixes: readonly string[]
  /** The terminal gate: the terminal token and the caller it stands for (absent: terminal routes refuse everyone). */
  terminal?: { matches(token: string): boolean; principal: Principal }
}

const CALLER = Symbol('orchestrator caller')
const AUTHENTICATED = Symbol('orchestrator authenticated caller')
type WithCaller = FastifyRequest & { [CALLER]?: Principal; [AUTHENTICATED]?: Principal }

/** The caller whose bearer was verified, even if a later check refused it (audit of denials); else undefined. */
export function authenticatedCallerOf(request: FastifyRequest): Principal | undefined {
  return (request as WithCaller)[AUTHENTICATED]
}

/** The built-in matrix: each role's permissions, unioned. */
export async function builtInPermissions(roles: readonly string[]): Promise<ReadonlySet<string>> {
  const granted = new Set<string>()
  for (const role of roles) if (isBuiltInRole(role)) for (const permission of BUILT_IN_PERMISSIONS[role]) granted.add(permission)
  return granted
}

/** The permission a route needs when it names none. */
export function requiredPermission(access: RouteAccess, method: string): string {
  if (access.permission) return access.permission
  if (access.caller === 'admin') return 'admin'
  if (access.control) return 'execute'
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write'
}

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
    if (access.caller === 'terminal') {
      if (access.socket) return
      const presented = bearerToken(request.headers.authorization)
      if (!options.terminal || presented === null || !options.terminal.matches(presented)) {
        throw orchestratorError('UNAUTHENTICATED', 'Unauthorized: the terminal routes take the terminal token (GET /api/terminal/token)')
      }
      ;(request as WithCaller)[CALLER] = options.terminal.principal
      return
    }
    const method = request.method
    const auth = access.strictBearer ? { token: options.auth.token, disabled: false, defaultDeny: true } : options.auth
    const identity = { owner: options.principal, oidc: options.oidc ?? (() => null) }
    const queryUrl = access.queryToken === true && (method === 'GET' || method === 'HEAD') ? request.url : null
    const decision = await authenticate(auth, identity, request.headers.authorization, queryUrl)
    if (!decision.ok) throw orchestratorError(decision.status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN', decision.error)
    const caller = decision.principal
    ;(request as WithCaller)[AUTHENTICATED] = caller
    // A disabled feature is absent: its routes must not first answer a role or control gate's 403.
    if (access.feature !== undefined) options.assertFeature?.(access.feature)
    // Roles are checked for OIDC callers only: the API token's owner, the CLI and the engine act for the project.
    if (caller.mode === 'oidc') {
      if (!access.anyTenant && !caller.tenantClaimed && options.strictTenant?.() === true) {
        throw orchestratorError('FORBIDDEN', 'strict_tenant_isolation: the caller has no tenant claim')
      }
      const needed = requiredPermission(access, method)
      const granted = await (options.permissionsOf ?? builtInPermissions)(caller.roles ?? [])
      if (!granted.has(needed)) throw orchestratorError('FORBIDDEN', `This route needs the ${needed} permission.`)
    } else if (access.caller === 'admin' && caller.role !== 'admin') {
      throw orchestratorError('FORBIDDEN', 'This route needs the admin role.')
    }
    if (access.control) options.assertControl(caller)
    ;(request as WithCaller)[CALLER] = caller
  })
}
