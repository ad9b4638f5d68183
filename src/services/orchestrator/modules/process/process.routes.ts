import type { App } from '../../../../core/http/server.js'
import { principalOf } from './principal.js'
import type { ProcessService } from './process.service.js'
import * as schemas from './process.schemas.js'

/** POST /api/process/submit and the two reads of a submission. */
export function processRoutes(deps: { process: ProcessService }) {
  const { process } = deps
  return async function register(app: App) {
    app.post(
      '/api/process/submit',
      {
        schema: {
          tags: ['process'],
          summary:
            'Submit an ExecutionRequest: runs now (202, status running) ' +
            'or parks behind an approval request (202, pending-approval) by its effect class',
          body: schemas.SubmitBody,
          response: { 202: schemas.SubmitAnswerBody, 400: schemas.ErrorBody, 409: schemas.ErrorBody, 422: schemas.ErrorBody }
        }
      },
      async (request, reply) => reply.code(202).send(await process.submit(request.body, principalOf(request)))
    )

    for (const url of ['/api/process/status/:id', '/api/process/result/:id']) {
      app.get(
        url,
        {
          schema: {
            tags: ['process'],
            summary: "A submission as it really is (its job and sprint read back); another tenant's is not found",
            params: schemas.IdParams,
            response: { 200: schemas.ExecutionBody, 404: schemas.ErrorBody }
          }
        },
        async (request) => process.view(principalOf(request), request.params.id)
      )
    }
  }
}
