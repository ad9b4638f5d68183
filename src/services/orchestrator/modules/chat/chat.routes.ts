/**
 * POST /api/chat and GET /api/chat/stream. A client that goes away aborts the provider call
 * (its HTTP request is cancelled). See docs/orchestrator.md#chat.
 */
import type { FastifyReply } from 'fastify'
import type { App } from '../../../../core/http/server.js'
import { ACCESS, callerOf } from '../../gates/route-access.js'
import { closeStreamsOnShutdown, openSse, type SseOptions } from '../../streams/sse.js'
import type { ChatService } from './chat.service.js'
import * as schemas from './chat.schemas.js'

const tags = ['chat']
const SSE_RESPONSE = { description: 'text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }

/** Aborted when the client's connection closes before the answer was sent. */
function abortOnDisconnect(reply: FastifyReply): AbortController {
  const controller = new AbortController()
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort()
  })
  return controller
}

export function chatRoutes(deps: { chat: ChatService; sse?: SseOptions }) {
  return async function register(app: App) {
    const track = closeStreamsOnShutdown(app)

    app.post(
      '/api/chat',
      {
        // The chat reads and answers; it never acts, so it is not a control mutation (docs/compatibility.md#orchestrator).
        config: { access: ACCESS.bearer },
        schema: {
          tags,
          summary: 'One chat reply: built-in commands from live state, anything else from the configured provider',
          body: schemas.ChatBody,
          response: { 200: schemas.ChatReply, 400: schemas.ErrorBody }
        }
      },
      async (request, reply) => {
        const controller = abortOnDisconnect(reply)
        return deps.chat.reply(callerOf(request), request.body.message, controller.signal)
      }
    )

    app.get(
      '/api/chat/stream',
      {
        exposeHeadRoute: false,
        config: { access: ACCESS.stream },
        schema: {
          tags,
          summary: 'SSE chat: data frames {type: chunk, text}…, then exactly one {type: done, reply} or {type: error, message}',
          querystring: schemas.StreamQuery,
          response: { 200: SSE_RESPONSE, 400: schemas.ErrorBody }
        }
      },
      async (request, reply) => {
        const controller = abortOnDisconnect(reply)
        const connection = openSse(request, reply, deps.sse)
        track(connection)
        connection.onClose(() => controller.abort())
        try {
          await deps.chat.stream(callerOf(request), request.query.message ?? '', controller.signal, (frame) => {
            connection.send({ data: frame })
          })
        } catch (error) {
          request.log.warn({ err: error }, 'chat stream failed')
          connection.send({ data: { type: 'error', message: 'the chat could not answer' } })
        } finally {
          connection.close()
        }
      }
    )
  }
}
