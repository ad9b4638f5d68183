import { Type } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import { ACCESS } from '../../gates/route-access.js'
import type { IngressService } from './ingress.service.js'

const ChannelParams = Type.Object({ channel: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' }) })
const ErrorBody = Type.Object({ error: Type.String() })

/** A form body (Slack slash commands, e-mail relays) as an object of its fields. */
function parseBody(raw: Buffer, contentType: string | undefined): Record<string, unknown> | null {
  const text = raw.toString('utf8')
  if (contentType?.startsWith('application/x-www-form-urlencoded')) {
    const fields = Object.fromEntries(new URLSearchParams(text)) as Record<string, unknown>
    // Slack's interactive components post one `payload` field of JSON.
    if (typeof fields.payload === 'string') {
      try {
        const inner: unknown = JSON.parse(fields.payload)
        if (typeof inner === 'object' && inner !== null && !Array.isArray(inner)) return inner as Record<string, unknown>
      } catch {
        // Not JSON: keep the fields as they are.
      }
    }
    return fields
  }
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/**
 * POST /api/webhooks/:channel: public (platforms send no bearer), authenticated by each
 * connector's signature over the raw body, which this plugin keeps by reading every body as bytes.
 */
export function ingressRoutes(deps: { ingress: IngressService }) {
  return async function register(app: App) {
    app.removeAllContentTypeParsers()
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))
    app.post(
      '/api/webhooks/:channel',
      {
        config: { access: ACCESS.public },
        schema: {
          tags: ['autonomous'],
          summary: 'Connector ingress (generic JSON, Slack, Discord, Telegram, e-mail relay), signed per connector',
          params: ChannelParams,
          response: {
            // A platform handshake (Slack's challenge, Discord's PING or interaction answer), in the platform's shape.
            200: Type.Unknown(),
            202: Type.Object({
              accepted: Type.Boolean(),
              id: Type.String(),
              correlationId: Type.String(),
              status: Type.String(),
              target: Type.String()
            }),
            400: ErrorBody,
            401: ErrorBody,
            404: ErrorBody,
            409: ErrorBody
          }
        }
      },
      async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
        const answer = await deps.ingress.receive(request.params.channel, {
          headers: request.headers,
          raw,
          body: parseBody(raw, request.headers['content-type'])
        })
        return reply.code(answer.status).send(answer.body as never)
      }
    )
  }
}
