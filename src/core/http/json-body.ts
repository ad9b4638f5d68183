import type { IncomingMessage, Server } from 'node:http'
import type { FastifyBodyParser, FastifySchema, RouteGenericInterface } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { App } from './app.js'

type JsonBodyParser = FastifyBodyParser<string | Buffer, Server, IncomingMessage, RouteGenericInterface, FastifySchema, TypeBoxTypeProvider>

/**
 * A JSON body parser that takes an empty body as no body: browsers' fetch sends "Content-Type:
 * application/json" with nothing on POSTs whose parameters sit in the query string, and the
 * ChannelEngine PHP client does on DELETE. A route without a body schema then simply has no body;
 * a route that requires one answers its validation error. Non-empty bodies go through Fastify's
 * own (prototype-poisoning-safe) JSON parser.
 */
export function emptyTolerantJsonParser(app: App): JsonBodyParser {
  const parse = app.getDefaultJsonParser('error', 'error')
  return (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8')
    if (text.trim().length === 0) {
      done(null, undefined)
      return
    }
    void parse(request, text, done)
  }
}

/** Installs emptyTolerantJsonParser for application/json (createServer does, for every service). */
export function allowEmptyJsonBodies(app: App): void {
  const parser = emptyTolerantJsonParser(app)
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parser)
}
