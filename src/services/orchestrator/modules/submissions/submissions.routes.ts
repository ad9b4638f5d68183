import type { App } from '../../../../core/http/server.js'
import { ACCESS, callerOf } from '../../gates/route-access.js'
import * as schemas from './submissions.schemas.js'
import type { SubmissionsService } from './submissions.service.js'

/** POST /api/process/submit and the two reads of a submission. */
export function submissionRoutes({ submissions }: { submissions: SubmissionsService }) {
  return async function register(app: App) {
    app.post(
      '/api/process/submit',
      {
        // Not a control mutation by itself: while control mutations are off the service parks the
        // submission for a human's approval instead of starting a run.
        config: { access: ACCESS.bearer },
        schema: {
          tags: ['process'],
          summary:
            'Submit an ExecutionRequest: runs now (202, status running) or parks behind an approval request ' +
            '(202, pending-approval) by its effect class — always parked while control mutations are off',
          body: schemas.SubmitBody,
          response: { 202: schemas.SubmitAnswerBody, 400: schemas.ErrorBody, 409: schemas.ErrorBody, 422: schemas.ErrorBody }
        }
      },
      async (request, reply) => reply.code(202).send(await submissions.submit(request.body, callerOf(request)))
    )

    for (const url of ['/api/process/status/:id', '/api/process/result/:id']) {
      app.get(
        url,
        {
          config: { access: ACCESS.bearer },
          schema: {
            tags: ['process'],
            summary: "A submission as it really is (its job and sprint read back); another tenant's is not found",
            params: schemas.IdParams,
            response: { 200: schemas.ExecutionBody, 404: schemas.ErrorBody }
          }
        },
        async (request) => submissions.view(callerOf(request), request.params.id)
      )
    }
  }
}
