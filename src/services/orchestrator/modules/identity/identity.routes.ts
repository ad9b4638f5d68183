import { isAppError } from '../../../../core/errors/app-error.js'
import type { App } from '../../../../core/http/server.js'
import { ACCESS, callerOf } from '../../gates/route-access.js'
import { renderMe } from './identity.render.js'
import * as schemas from './identity.schemas.js'
import type { OidcExchangeService } from './oidc-exchange.service.js'

/** GET /api/auth/me and the dashboard's OIDC code exchange. */
export function identityRoutes(deps: { exchange: OidcExchangeService }) {
  return async function register(app: App) {
    app.get(
      '/api/auth/me',
      {
        config: { access: ACCESS.identity },
        schema: {
          tags: ['identity'],
          summary: 'The verified caller: mode (static API token or OIDC), subject, tenant and role',
          response: { 200: schemas.Me }
        }
      },
      async (request) => renderMe(callerOf(request))
    )

    // Bearer-exempt: it establishes identity. Its own gate is dashboard_oidc (else 404 oidc_disabled)
    // and a complete PKCE request before any call to the identity provider.
    app.post(
      '/api/auth/oidc/exchange',
      {
        config: { access: ACCESS.public },
        // Any malformed body is the reference's invalid_request, not the generic validation error.
        attachValidation: true,
        schema: {
          tags: ['identity'],
          summary: 'Exchange an authorization code (PKCE) at the configured issuer for a Quartet session token',
          body: schemas.ExchangeBody,
          response: {
            200: schemas.ExchangeResult,
            400: schemas.ErrorBody,
            401: schemas.ErrorBody,
            404: schemas.ErrorBody,
            502: schemas.ErrorBody
          }
        }
      },
      async (request, reply) => {
        if (request.validationError) {
          if (!deps.exchange.enabled()) return reply.code(404).send({ error: 'oidc_disabled' })
          return reply.code(400).send({ error: 'invalid_request', reason: 'the body must be {code, code_verifier} strings' })
        }
        try {
          return await deps.exchange.exchange(request.body)
        } catch (error) {
          if (!isAppError(error) || !error.code.startsWith('ORCH_OIDC_')) throw error
          const reason = error.details?.[0]?.message
          request.log.warn({ code: error.code, reason }, 'oidc exchange refused')
          return reply.code(error.statusCode as 400).send({ error: error.message, ...(reason !== undefined ? { reason } : {}) })
        }
      }
    )
  }
}
