import { createHash } from 'node:crypto'
import type { Static } from 'typebox'
import type { ProductRow } from '../../db.js'
import { invalid, marketplaceError, uniqueViolationAs } from '../../errors.js'
import { optionalCents } from '../../money.js'
import { requireMerchant, type Principal } from '../keys/keys.service.js'
import type { ChildProductRequest, ProductRequest, UpsertProductsBody } from './products.schemas.js'
import type { ProductsServiceDeps } from './products.deps.js'

type Request = Static<typeof ProductRequest> | Static<typeof ChildProductRequest>
interface Entry {
  input: Request
  path: string
  parentReference: string | null
}

const DATA_KEYS = [
  'Name',
  'Description',
  'Details',
  'Brand',
  'Size',
  'Color',
  'Ean',
  'ManufacturerProductNumber',
  'ShippingTime',
  'Url',
  'ImageUrl',
  'CategoryTrail'
] as const
const MONEY_KEYS = ['MSRP', 'PurchasePrice', 'ShippingCost'] as const
const RATE_KEYS = ['DiscountRate', 'VatRate'] as const

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32)

/** The product's data in a fixed key order (money in cents) — its hash changes only when the data does. */
function canonicalData(entry: Entry): string {
  const input = entry.input as Record<string, unknown>
  const data: Record<string, unknown> = { ParentMerchantReference: entry.parentReference }
  for (const key of DATA_KEYS) data[key] = input[key] ?? null
  for (const key of MONEY_KEYS) data[key] = optionalCents(input[key] as number | null | undefined, `${entry.path}.${key}`)
  for (const key of RATE_KEYS) data[key] = input[key] ?? null
  data.VatRateType = input.VatRateType ?? null
  Object.assign(data, extraDataOf(input.ExtraData as ExtraDataInput, `${entry.path}.ExtraData`))
  return JSON.stringify(data)
}

type ExtraDataInput =
  Record<string, string> | { Key: string; Value?: string | null; Type?: string; IsPublic?: boolean }[] | null | undefined

/**
 * ExtraData as key → value (the seed's map, keys sorted); the list form of the 2016 clients also
 * keeps each key's Type and IsPublic (ExtraDataTypes), so it can be answered in the same form.
 */
function extraDataOf(
  extra: ExtraDataInput,
  path: string
): { ExtraData: Record<string, string>; ExtraDataTypes?: Record<string, { Type: string | null; IsPublic: boolean | null }> } {
  if (!Array.isArray(extra)) {
    const map = extra ?? {}
    return {
      ExtraData: Object.fromEntries(
        Object.keys(map)
          .sort()
          .map((k) => [k, map[k] as string])
      )
    }
  }
  const sorted = [...extra].sort((a, b) => (a.Key < b.Key ? -1 : a.Key > b.Key ? 1 : 0))
  sorted.forEach((item, i) => {
    if (sorted[i + 1]?.Key === item.Key) throw invalid(path, `the key ${JSON.stringify(item.Key)} appears twice`)
  })
  return {
    ExtraData: Object.fromEntries(sorted.map((item) => [item.Key, item.Value ?? ''])),
    ExtraDataTypes: Object.fromEntries(sorted.map((item) => [item.Key, { Type: item.Type ?? null, IsPublic: item.IsPublic ?? null }]))
  }
}

/** Flattens parents with nested Children, and flat items linked by ParentMerchantReference. */
function flatten(body: Static<typeof UpsertProductsBody>): Entry[] {
  const items = Array.isArray(body) ? body : [body]
  const entries: Entry[] = []
  items.forEach((item, i) => {
    const path = Array.isArray(body) ? `[${i}]` : ''
    const field = (name: string) => (path ? `${path}.${name}` : name)
    const children = item.Children ?? []
    if (children.length > 0 && item.ParentMerchantReference) {
      throw marketplaceError(
        'MARKETPLACE_PRODUCT_NESTING',
        `${field('Children')}: product ${JSON.stringify(item.MerchantProductReference)} ` +
          `is a child of ${JSON.stringify(item.ParentMerchantReference)} and so cannot have children (one level of nesting only).`,
        {
          details: [
            {
              pointer: `/${field('Children')
                .replace(/[[\].]+/g, '/')
                .replace(/^\/|\/$/g, '')}`,
              message: 'a child cannot have children'
            }
          ]
        }
      )
    }
    entries.push({ input: item, path: path || 'body', parentReference: item.ParentMerchantReference ?? null })
    children.forEach((child, j) => {
      const childPath = field(`Children[${j}]`)
      if ((child.Children ?? []).length > 0) {
        throw marketplaceError(
          'MARKETPLACE_PRODUCT_NESTING',
          `${childPath}.Children: child ${JSON.stringify(child.MerchantProductReference)} ` +
            `of ${JSON.stringify(item.MerchantProductReference)} cannot have children (one level of nesting only).`,
          {
            details: [
              { pointer: `/${childPath.replace(/\[(\d+)\]/g, '/$1').replace(/^\//, '')}/Children`, message: 'a child cannot have children' }
            ]
          }
        )
      }
      if (child.ParentMerchantReference && child.ParentMerchantReference !== item.MerchantProductReference) {
        throw invalid(
          `${childPath}.ParentMerchantReference`,
          `is ${JSON.stringify(child.ParentMerchantReference)} but the child is nested in ${JSON.stringify(item.MerchantProductReference)}`
        )
      }
      entries.push({ input: child, path: childPath, parentReference: item.MerchantProductReference })
    })
  })
  return entries
}

/** The merchant's product upsert of the products service. */
export function createProductUpsert({ products, now }: ProductsServiceDeps) {
  return {
    /**
     * Merchant: creates or replaces products (parents with children, one level). All or nothing;
     * a deactivated reference is never reused (409). Returns every product written, parents first.
     */
    async upsert(
      principal: Principal,
      body: Static<typeof UpsertProductsBody>
    ): Promise<(ProductRow & { parent_reference: string | null })[]> {
      requireMerchant(principal, 'Creating products')
      const entries = flatten(body)
      const byReference = new Map<string, Entry>()
      for (const entry of entries) {
        const ref = entry.input.MerchantProductReference
        if (byReference.has(ref))
          throw invalid(`${entry.path}.MerchantProductReference`, `${JSON.stringify(ref)} appears twice in this request`)
        byReference.set(ref, entry)
      }
      const parentRefs = [...new Set(entries.flatMap((e) => (e.parentReference ? [e.parentReference] : [])))]
      const at = now()
      const prepared = entries.map((entry) => {
        const data = canonicalData(entry)
        const price = optionalCents(entry.input.Price, `${entry.path}.Price`)
        const stock = entry.input.Stock ?? 0
        return { entry, data, dataHash: hash(data), price, stock, offerHash: `${price ?? ''}|${stock}` }
      })
      return uniqueViolationAs(
        () =>
          products.transaction(async (trx) => {
            // Taken first: it locks the customer row, so concurrent upserts of one reference queue here
            // and each reads the products the one before committed (an update, not a duplicate insert).
            const seq = await products.nextSeq(trx, principal.customerId)
            const existing = new Map(
              (await products.byMerchantReferences(principal.customerId, [...new Set([...byReference.keys(), ...parentRefs])], trx)).map(
                (p) => [p.merchant_reference, p]
              )
            )
            const withChildren = await products.hasChildren(
              [...existing.values()].map((p) => p.id),
              trx
            )
            // Rules: parents exist (here or already), are active, and are not children themselves.
            for (const { entry } of prepared) {
              const ref = entry.input.MerchantProductReference
              const current = existing.get(ref)
              if (current && current.is_active !== 1) {
                throw marketplaceError(
                  'MARKETPLACE_PRODUCT_DEACTIVATED',
                  `${entry.path}.MerchantProductReference: product ${JSON.stringify(ref)} was deactivated; its reference cannot be reused.`
                )
              }
              if (!entry.parentReference) continue
              if (entry.parentReference === ref)
                throw invalid(`${entry.path}.ParentMerchantReference`, 'a product cannot be its own parent')
              const parentEntry = byReference.get(entry.parentReference)
              const parentRow = existing.get(entry.parentReference)
              if (!parentEntry && !parentRow) {
                throw marketplaceError(
                  'MARKETPLACE_PRODUCT_NOT_FOUND',
                  `${entry.path}.ParentMerchantReference: ` +
                    `no product ${JSON.stringify(entry.parentReference)} exists or is in this request.`,
                  { details: [{ pointer: '/ParentMerchantReference', message: `no product ${JSON.stringify(entry.parentReference)}` }] }
                )
              }
              if (!parentEntry && parentRow && parentRow.is_active !== 1)
                throw invalid(`${entry.path}.ParentMerchantReference`, `parent ${JSON.stringify(entry.parentReference)} is deactivated`)
              const grandparent = parentEntry ? parentEntry.parentReference : (parentRow?.parent_id ?? null)
              if (grandparent !== null) {
                throw marketplaceError(
                  'MARKETPLACE_PRODUCT_NESTING',
                  `${entry.path}: parent ${JSON.stringify(entry.parentReference)} is itself a child; products nest one level only.`
                )
              }
              if (current && withChildren.has(current.id)) {
                throw marketplaceError(
                  'MARKETPLACE_PRODUCT_NESTING',
                  `${entry.path}: product ${JSON.stringify(ref)} ` +
                    `has children and so cannot become a child of ${JSON.stringify(entry.parentReference)}.`
                )
              }
            }
            const ids = new Map<string, number>([...existing].map(([ref, p]) => [ref, p.id]))
            // Parents first, so children can point at them.
            for (const pass of [false, true]) {
              const inPass = prepared.filter((p) => (p.entry.parentReference !== null) === pass)
              const inserts = []
              for (const p of inPass) {
                const ref = p.entry.input.MerchantProductReference
                const parentId = p.entry.parentReference ? (ids.get(p.entry.parentReference) as number) : null
                const current = existing.get(ref)
                if (!current) {
                  inserts.push({
                    customer_id: principal.customerId,
                    merchant_reference: ref,
                    parent_id: parentId,
                    is_active: 1,
                    data: p.data,
                    data_hash: p.dataHash,
                    data_seq: seq,
                    price_cents: p.price,
                    stock: p.stock,
                    offer_hash: p.offerHash,
                    offer_seq: seq,
                    created_at: at,
                    updated_at: at
                  })
                  continue
                }
                const dataChanged = current.data_hash !== p.dataHash
                const offerChanged = current.offer_hash !== p.offerHash
                if (!dataChanged && !offerChanged) continue
                await products.update(trx, current.id, {
                  parent_id: parentId,
                  data: p.data,
                  data_hash: p.dataHash,
                  price_cents: p.price,
                  stock: p.stock,
                  offer_hash: p.offerHash,
                  ...(dataChanged ? { data_seq: seq } : {}),
                  ...(offerChanged ? { offer_seq: seq } : {}),
                  updated_at: at
                })
              }
              for (const [ref, id] of await products.insertMany(trx, inserts)) ids.set(ref, id)
            }
            const written = await products.byMerchantReferences(principal.customerId, [...byReference.keys()], trx)
            const order = new Map(prepared.map((p, i) => [p.entry.input.MerchantProductReference, i]))
            return written
              .map((p) => ({ ...p, parent_reference: byReference.get(p.merchant_reference)?.parentReference ?? null }))
              .sort((a, b) => (order.get(a.merchant_reference) ?? 0) - (order.get(b.merchant_reference) ?? 0))
          }),
        () =>
          marketplaceError(
            'MARKETPLACE_DUPLICATE_MERCHANT_REFERENCE',
            'A product in this request was created concurrently by another request; retry.'
          )
      )
    }
  }
}
