import type { App } from '../../src/core/http/server.js'
import { injectedResponse, type InjectedResponse } from './inject.js'

/**
 * What ChannelEngine's generated PHP client of November 2016 (channelengine/merchant-api-client-php,
 * the "Merchant:"/"Channel:" generation, commit 993926d / cfc86ab) puts on the wire and how it reads
 * the answer, restated from its lib/ApiClient.php, lib/ObjectSerializer.php and lib/Model/*.php
 * (checked against the real client by test/e2e/marketplace-php-client.test.ts, which runs it).
 *
 * Requests (ApiClient::callApi): every call sends `Accept: application/json` and
 * `Content-Type: application/json` (selectHeaderContentType answers application/json for an
 * empty list too, so GET and DELETE carry it; DELETE with an empty body), the User-Agent
 * `Swagger-Codegen/1.0.0/php`, query parameters through http_build_query, DateTime values as
 * DATE_ATOM, and a model body as json_encode(sanitizeForSerialization(model)): properties under
 * their attributeMap name, null properties omitted, "/" escaped as "\/" and non-ASCII as \uXXXX.
 * The operations never add the API key (the apikey scheme is declared only globally, "No
 * authorization required" per operation): an integrator adds it as a default header of the
 * Configuration (addDefaultHeader), which is what callAsClient does.
 *
 * Responses (ObjectSerializer::deserialize): anything outside 200..299 throws ApiException;
 * otherwise each property of the response model is read by its wire name, absent or null ones are
 * skipped, extra ones ignored. Scalars go through settype (an object where a string is declared is
 * a fatal error), `X[]` is iterated, and enum setters throw InvalidArgumentException on a value
 * outside their list. A model's listInvalidProperties() then names each required property that is
 * null ("'channel_reference' can't be null"): MODELS marks those `required`. (It also calls every
 * unset optional enum invalid — in_array(null, allowed) — which a client cannot act on; an unset
 * optional field is not a problem here either.)
 */
type Field =
  | 'string'
  | 'int'
  | 'double'
  | 'bool'
  | 'DateTime'
  | 'map'
  | 'string[]'
  | { enum: readonly string[] }
  | { model: string }
  | { list: string }
interface FieldSpec {
  type: Field
  required?: boolean
}
export type ModelSpec = Record<string, FieldSpec>

const f = (type: Field, required = false): FieldSpec => ({ type, required })
const REASONS = [
  'PRODUCT_DEFECT',
  'PRODUCT_UNSATISFACTORY',
  'REFUSED',
  'REFUSED_DAMAGED',
  'WRONG_ADDRESS',
  'NOT_COLLECTED',
  'OTHER'
] as const
const VAT_RATE_TYPES = ['STANDARD', 'REDUCED', 'SUPER_REDUCED'] as const

const productFields: ModelSpec = {
  MappedFields: f('map'),
  Name: f('string'),
  Description: f('string'),
  Brand: f('string'),
  Size: f('string'),
  Color: f('string'),
  Ean: f('string'),
  ManufacturerProductNumber: f('string'),
  Stock: f('int'),
  Price: f('double'),
  MSRP: f('double'),
  PurchasePrice: f('double'),
  VatRateType: f({ enum: VAT_RATE_TYPES }),
  ShippingCost: f('double'),
  ShippingTime: f('string'),
  Url: f('string'),
  ImageUrl: f('string'),
  CategoryTrail: f('string'),
  ExtraData: f({ list: 'ExtraDataItem' })
}
const returnFields: ModelSpec = {
  Reason: f({ enum: REASONS }),
  CustomerComment: f('string'),
  MerchantComment: f('string'),
  RefundInclVat: f('double'),
  RefundExclVat: f('double')
}

/** Response models: wire name → type and required flag, from each lib/Model/<name>.php. */
export const MODELS: Record<string, ModelSpec> = {
  ApiResponse: { StatusCode: f('int'), Success: f('bool'), Message: f('string'), ValidationErrors: f('map') },
  BackOrder: {
    MerchantBackorderReference: f('string', true),
    MerchantOrderReference: f('string', true),
    ChannelOrderReference: f('string'),
    Lines: f({ list: 'BackOrderLine' }, true)
  },
  BackOrderLine: { MerchantOrderLineReference: f('string', true), Quantity: f('int', true) },
  MerchantOrderResponse: {
    Id: f('int'),
    ChannelName: f('string'),
    CanShipPartialOrderLines: f('bool'),
    Lines: f({ list: 'MerchantOrderLineResponse' }),
    Phone: f('string'),
    Email: f('string', true),
    CompanyRegistrationNo: f('string'),
    VatNo: f('string'),
    PaymentMethod: f('string', true),
    ShippingCostsInclVat: f('double', true),
    CurrencyCode: f('string', true),
    OrderDate: f('DateTime', true),
    ChannelCustomerReference: f('string'),
    BillingAddress: f({ model: 'EntitiesAddressModels' }, true),
    ShippingAddress: f({ model: 'EntitiesAddressModels' }, true),
    ExtraData: f('map')
  },
  MerchantOrderLineResponse: {
    MerchantProductReference: f('string', true),
    Quantity: f('int', true),
    UnitPriceInclVat: f('double', true),
    FeeFixed: f('double'),
    FeeRate: f('double')
  },
  EntitiesAddressModels: {
    Gender: f({ enum: ['MALE', 'FEMALE', 'NOT_APPLICABLE'] }),
    CompanyName: f('string'),
    FirstName: f('string'),
    LastName: f('string'),
    StreetName: f('string'),
    HouseNr: f('string'),
    HouseNrAddition: f('string'),
    ZipCode: f('string'),
    City: f('string'),
    Region: f('string'),
    CountryIso: f('string'),
    Original: f('string')
  },
  ChannelShipmentResponse: {
    ChannelOrderReference: f('string', true),
    Lines: f({ list: 'ChannelProductLine' }, true),
    TrackTraceNo: f('string'),
    TrackTraceUrl: f('string'),
    Method: f('string')
  },
  ChannelCancellationResponse: {
    ChannelOrderReference: f('string', true),
    Lines: f({ list: 'ChannelProductLine' }, true),
    Reason: f('string')
  },
  // ChannelShipmentLineResponse, ChannelCancellationLineResponse and ChannelReturnLineResponse share these two fields.
  ChannelProductLine: { ChannelProductReference: f('string', true), Quantity: f('int', true) },
  MerchantReturnResponse: { MerchantOrderReference: f('string'), Lines: f({ list: 'MerchantReturnLineResponse' }), ...returnFields },
  MerchantReturnLineResponse: { MerchantProductReference: f('string'), Quantity: f('int', true) },
  ChannelReturnResponse: {
    ChannelReference: f('string', true),
    ChannelOrderReference: f('string', true),
    Lines: f({ list: 'ChannelProductLine' }, true),
    ...returnFields
  },
  ChannelOfferResponse: { ChannelProductReference: f('string'), Price: f('double'), Stock: f('int') },
  ChannelProductChangesResponse: {
    ToBeCreated: f({ list: 'ChannelProductResponse' }),
    ToBeUpdated: f({ list: 'ChannelProductResponse' }),
    ToBeRemoved: f('string[]')
  },
  ChannelProductResponse: { Id: f('int', true), ParentChannelReference: f('string'), ...productFields },
  MerchantProductResponse: { IsActive: f('bool'), ...productFields },
  ExtraDataItem: { Key: f('string'), Value: f('string'), Type: f({ enum: ['TEXT', 'NUMBER', 'URL', 'IMAGEURL'] }), IsPublic: f('bool') },
  ProductCreationResult: { AcceptedCount: f('int'), RejectedCount: f('int'), ProductMessages: f({ list: 'ProductMessage' }) },
  ProductMessage: { Name: f('string'), Reference: f('string'), Warnings: f('string[]'), Errors: f('string[]') }
}

/** The response types of lib/Api/*.php: ApiResponse, SingleOfX {Content: X} or CollectionOfX {Content: X[], Count}. */
export type ResponseType = { kind: 'ApiResponse' } | { kind: 'Single'; of: string } | { kind: 'Collection'; of: string }

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

function checkValue(type: Field, value: unknown, path: string, problems: string[]): void {
  if (typeof type === 'string') {
    const ok =
      type === 'string'
        ? typeof value === 'string'
        : type === 'int'
          ? Number.isInteger(value)
          : type === 'double'
            ? typeof value === 'number'
            : type === 'bool'
              ? typeof value === 'boolean'
              : type === 'DateTime'
                ? typeof value === 'string' && !Number.isNaN(Date.parse(value))
                : type === 'map'
                  ? isObject(value)
                  : Array.isArray(value) && value.every((v) => typeof v === 'string')
    if (!ok) problems.push(`${path}: ${JSON.stringify(value)} is not ${type}`)
  } else if ('enum' in type) {
    if (!type.enum.includes(value as string)) problems.push(`${path}: ${JSON.stringify(value)} is not one of ${type.enum.join(', ')}`)
  } else if ('model' in type) {
    checkModel(type.model, value, path, problems)
  } else if (!Array.isArray(value)) {
    problems.push(`${path}: ${JSON.stringify(value)} is not a list of ${type.list}`)
  } else {
    value.forEach((item, i) => checkModel(type.list, item, `${path}[${i}]`, problems))
  }
}

function checkModel(name: string, value: unknown, path: string, problems: string[]): void {
  const spec = MODELS[name]
  if (!spec) throw new Error(`no model ${name}`)
  if (!isObject(value)) {
    problems.push(`${path}: not a ${name} object`)
    return
  }
  for (const [field, { type, required }] of Object.entries(spec)) {
    const v = value[field]
    if (v === undefined || v === null) {
      if (required) problems.push(`${path}.${field}: required by ${name} but missing`)
      continue
    }
    checkValue(type, v, `${path}.${field}`, problems)
  }
}

/** Problems the client would have with a response (empty: it deserialises into the declared model). */
export function clientProblems(response: InjectedResponse, type: ResponseType): string[] {
  const problems: string[] = []
  if (response.status < 200 || response.status > 299) return [`HTTP ${response.status}: ApiException (${response.body.slice(0, 300)})`]
  const body = response.json
  if (!isObject(body)) return ['the body is not a JSON object']
  checkModel('ApiResponse', body, '$', problems)
  if (body.Success !== true) problems.push('$.Success is not true')
  if (type.kind === 'Single') checkModel(type.of, body.Content, '$.Content', problems)
  if (type.kind === 'Collection') {
    checkValue({ list: type.of }, body.Content, '$.Content', problems)
    checkValue('int', body.Count, '$.Count', problems)
  }
  return problems
}

/** sanitizeForSerialization + json_encode: nulls dropped from models, "/" escaped, non-ASCII as \uXXXX. */
export function phpJson(body: unknown): string {
  const drop = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(drop)
      : isObject(v)
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([, x]) => x !== null && x !== undefined)
              .map(([k, x]) => [k, drop(x)])
          )
        : v
  return JSON.stringify(drop(body))
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

export interface ClientCall {
  method: 'GET' | 'POST' | 'DELETE'
  path: string
  query?: Record<string, string>
  body?: unknown
}

/** One request exactly as ApiClient::callApi sends it, the key as a Configuration default header (X-CE-KEY). */
export async function callAsClient(app: App, key: string, call: ClientCall): Promise<InjectedResponse> {
  const query = new URLSearchParams(call.query).toString()
  const response = await app.inject({
    method: call.method,
    url: `/v2${call.path}${query ? `?${query}` : ''}`,
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': 'Swagger-Codegen/1.0.0/php',
      'x-ce-key': key
    },
    payload: call.body === undefined ? '' : phpJson(call.body)
  })
  return injectedResponse(response)
}
