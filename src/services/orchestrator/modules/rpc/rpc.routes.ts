import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import { orchestratorError } from '../../errors.js'
import { ACCESS, callerOf } from '../../gates/route-access.js'
import { errorEnvelope, parseEnvelope, resultEnvelope, RPC_ERROR_CODES, RPC_VERSION, RpcFailure } from './rpc.envelope.js'
import { rpcMethods, type RpcDeps } from './rpc.methods.js'

const Envelope = Type.Object({
  id: Type.String(),
  version: Type.Literal(RPC_VERSION),
  result: Type.Optional(Type.Unknown()),
  error: Type.Optional(
    Type.Object({
      code: Type.String({ description: RPC_ERROR_CODES.join(' | ') }),
      message: Type.String(),
      data: Type.Optional(Type.Unknown())
    })
  )
})

/** POST /api/rpc: always 200 with a result or a typed error, except a malformed envelope (400). */
export function rpcRoutes(deps: RpcDeps) {
  const { handlers, notImplemented } = rpcMethods(deps)
  const knownMethods = [...Object.keys(handlers), ...notImplemented].sort()

  return async function register(app: App) {
    app.post(
      '/api/rpc',
      {
        // Methods that drive runs or decide approvals apply the same policies as their routes, in the services.
        config: { access: ACCESS.bearer },
        schema: {
          tags: ['rpc'],
          summary: `Versioned RPC (version "${RPC_VERSION}"): ${knownMethods.join(', ')}`,
          // Validated by parseEnvelope, so a malformed envelope gets the RPC's own 400 message.
          body: Type.Unknown(),
          response: { 200: Envelope, 400: Type.Object({ error: Type.String() }) }
        }
      },
      async (request) => {
        const envelope = parseEnvelope(request.body)
        if ('invalid' in envelope) throw orchestratorError('ORCH_RPC_INVALID', `Invalid RPC request: ${envelope.invalid}`)
        const { id, method } = envelope
        if (envelope.version !== RPC_VERSION)
          return errorEnvelope(id, {
            code: 'VERSION_MISMATCH',
            message: `version ${envelope.version} is not supported (expected ${RPC_VERSION})`,
            data: { requestVersion: envelope.version, expectedVersion: RPC_VERSION }
          })
        if (notImplemented.has(method))
          return errorEnvelope(id, {
            code: 'METHOD_NOT_IMPLEMENTED',
            message: `${method} is part of the protocol but this server does not offer it`,
            data: { method }
          })
        const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined
        if (!handler)
          return errorEnvelope(id, { code: 'UNKNOWN_METHOD', message: `unknown method ${method}`, data: { method, knownMethods } })
        try {
          return resultEnvelope(id, await handler(envelope.params, callerOf(request)))
        } catch (error) {
          if (error instanceof RpcFailure)
            return errorEnvelope(id, {
              code: error.code,
              message: error.message,
              ...(error.data !== undefined ? { data: error.data } : {})
            })
          request.log.error({ err: error, method }, 'rpc: method failed')
          return errorEnvelope(id, { code: 'INTERNAL_ERROR', message: 'internal error' })
        }
      }
    )
  }
}
