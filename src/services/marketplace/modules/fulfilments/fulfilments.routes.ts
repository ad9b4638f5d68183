import type { TSchema } from 'typebox'
import type { App } from '../../../../core/http/server.js'
import type { FulfilmentKind } from '../../db.js'
import type { ApiKeyGuard } from '../../http/api-key.js'
import { moveAlias } from '../../http/aliases.js'
import { Collection, errorResponses, ok, page, security, Single } from '../../http/envelope.js'
import { RefParams } from '../../http/fields.js'
import { renderFulfilment } from './fulfilments.render.js'
import {
  BackorderBody,
  BackorderView,
  CancellationBody,
  CancellationView,
  ListQuery,
  ReturnBody,
  ReturnsOfQuery,
  ReturnView,
  ShipmentBody,
  ShipmentView
} from './fulfilments.schemas.js'
import type { FulfilmentInput, FulfilmentsService } from './fulfilments.service.js'

export interface FulfilmentsRouteDeps {
  fulfilments: FulfilmentsService
  apiKey: ApiKeyGuard
  pageSize: number
}

/** The 2016 clients' field names (alias → the seed's name), moved before validation. */
const RETURN_ALIASES: [string, string][] = [
  ['MerchantReference', 'MerchantReturnReference'],
  ['ChannelReference', 'ChannelReturnReference']
]
const KINDS: { kind: FulfilmentKind; path: string; body: TSchema; view: TSchema; roles: string; aliases: [string, string][] }[] = [
  { kind: 'backorder', path: 'backorders', body: BackorderBody, view: BackorderView, roles: 'merchant', aliases: [] },
  { kind: 'cancellation', path: 'cancellations', body: CancellationBody, view: CancellationView, roles: 'merchant', aliases: [] },
  {
    kind: 'shipment',
    path: 'shipments',
    body: ShipmentBody,
    view: ShipmentView,
    roles: 'merchant',
    aliases: [['MerchantReference', 'MerchantShipmentReference']]
  },
  { kind: 'return', path: 'returns', body: ReturnBody, view: ReturnView, roles: 'merchant or channel', aliases: RETURN_ALIASES }
]
const moveAliases = (aliases: [string, string][]) => async (request: { body: unknown }) => {
  for (const [from, to] of aliases) moveAlias(request.body, from, to, '')
}

/** /v2/backorders, /v2/cancellations, /v2/shipments, /v2/returns: create one, read one, list since a time. */
export function fulfilmentsRoutes(app: App, { fulfilments, apiKey, pageSize }: FulfilmentsRouteDeps): void {
  for (const { kind, path, body, view, roles, aliases } of KINDS) {
    app.post(
      `/${path}`,
      {
        schema: {
          tags: [path],
          summary: `Create a ${kind} (${roles} keys)`,
          security,
          body,
          response: { 201: Single(view), ...errorResponses(403, 404, 409) }
        },
        preValidation: moveAliases(aliases)
      },
      async (request, reply) => {
        const created = await fulfilments.create(kind, apiKey.of(request), request.body as FulfilmentInput[typeof kind])
        return reply.code(201).send(ok(renderFulfilment(kind, created), 201))
      }
    )

    app.get(
      `/${path}/:merchantReference`,
      {
        schema: {
          tags: [path],
          summary: `One ${kind} by its reference`,
          security,
          params: RefParams,
          response: { 200: Single(view), ...errorResponses(404) }
        }
      },
      async (request) =>
        ok(
          renderFulfilment(
            kind,
            await fulfilments.get(kind, apiKey.of(request), (request.params as { merchantReference: string }).merchantReference)
          )
        )
    )

    app.get(
      `/${path}`,
      {
        schema: {
          tags: [path],
          summary: `${path} created since createdSince (inclusive; oldest first; paged)`,
          security,
          querystring: ListQuery,
          response: { 200: Collection(view), ...errorResponses() }
        }
      },
      async (request) => {
        const query = request.query as { createdSince: string; page?: number }
        const { items, total } = await fulfilments.list(kind, apiKey.of(request), query.createdSince, query.page ?? 1, pageSize)
        return page(
          items.map((item) => renderFulfilment(kind, item)),
          total,
          pageSize
        )
      }
    )
  }

  // The 2016 clients' return paths. Static segments win over /returns/{ref}; without createdSince
  // they still read the return whose reference is "merchant" or "channel".
  const returnBody: TSchema = ReturnBody
  const returnView: TSchema = ReturnView
  for (const role of ['merchant', 'channel'] as const) {
    app.post(
      `/returns/${role}`,
      {
        schema: {
          tags: ['returns'],
          summary: `Create a return (${role} keys only)`,
          security,
          body: returnBody,
          response: { 201: Single(returnView), ...errorResponses(403, 404, 409) }
        },
        preValidation: moveAliases(RETURN_ALIASES)
      },
      async (request, reply) => {
        const created = await fulfilments.createReturnAs(role, apiKey.of(request), request.body as FulfilmentInput['return'])
        return reply.code(201).send(ok(renderFulfilment('return', created), 201))
      }
    )

    app.get(
      `/returns/${role}`,
      {
        schema: {
          tags: ['returns'],
          summary: `Returns created since createdSince (${role} keys only); without createdSince, the return with reference "${role}"`,
          security,
          querystring: ReturnsOfQuery,
          response: { 200: { anyOf: [Collection(returnView), Single(returnView)] }, ...errorResponses(403, 404) }
        }
      },
      async (request) => {
        const query = request.query as { createdSince?: string; page?: number }
        if (query.createdSince === undefined)
          return ok(renderFulfilment('return', await fulfilments.get('return', apiKey.of(request), role)))
        const { items, total } = await fulfilments.listReturnsAs(role, apiKey.of(request), query.createdSince, query.page ?? 1, pageSize)
        return page(
          items.map((item) => renderFulfilment('return', item)),
          total,
          pageSize
        )
      }
    )
  }
}
