import type { App } from './server.js'

/**
 * Browsers' fetch often sends "Content-Type: application/json" with no body on POSTs whose
 * parameters sit in the query string; treat an empty JSON body as absent instead of a 400.
 * Non-empty bodies go through Fastify's own (prototype-poisoning-safe) JSON parser.
 */
export function allowEmptyJsonBodies(app: App): void {
  const parse = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8')
    if (text.trim().length === 0) {
      done(null, undefined)
      return
    }
    void parse(request, text, done)
  })
}
