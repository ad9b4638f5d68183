import { createHash } from 'node:crypto'
import type { Static } from 'typebox'
import type { MarketplaceTrx, ProductRow } from '../../db.js'
import { invalid, marketplaceError, uniqueViolationAs } from '../../errors.js'
import { optionalCents } from '../../money.js'
import { requireChannel, requireMerchant, type Principal } from '../keys/keys.service.js'
import type { ChildProductRequest, OfferAckBody, ProductDataAckBody, ProductRequest, UpsertProductsBody } from './products.schemas.js'
import type { ChangeList, ProductsRepository } from './products.repository.js'

export interface ProductsServiceDeps {
  products: ProductsRepository
  now: () => string
}

type Request = Static<typeof ProductRequest> | Static<typeof ChildProductRequest>
interface Entry { input: Request; path: string; parentReference: string | null }

const DATA_KEYS = ['Name', 'Description', 'Details', 'Brand', 'Size', 'Color', 'Ean', 'ManufacturerProductNumber', 'ShippingTime', 'Url', 'ImageUrl', 'CategoryTrail'] as const
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

type ExtraDataInput = Record<string, string> | { Key: string; Value?: string | null; Type?: string; IsPublic?: boolean }[] | null | undefined

/**
 * ExtraData as key → value (the seed's map, keys sorted); the list form of the 2016 clients also
 * keeps each key's Type and IsPublic (ExtraDataTypes), so it can be answered in the same form.
 */
function extraDataOf(extra: ExtraDataInput, path: string): { ExtraData: Record<string, string>; ExtraDataTypes?: Record<string, { Type: string | null; IsPublic: boolean | null }> } {
  if (!Array.isArray(extra)) {
    const map = extra ?? {}
    return { ExtraData: Object.fromEntries(Object.keys(map).sort().map((k) => [k, map[k] as string])) }
  }
  const sorted = [...extra].sort((a, b) => (a.Key < b.Key ? -1 : a.Key > b.Key ? 1 : 0))
  sorted.forEach((item, i) => { if (sorted[i + 1]?.Key === item.Key) throw invalid(path, `the key ${JSON.stringify(item.Key)} appears twice`) })
  return {
    ExtraData: Object.fromEntries(sorted.map((item) => [item.Key, item.Value ?? ''])),
    ExtraDataTypes: Object.fromEntries(sorted.map((item) => [item.Key, { Type: item.Type ?? null, IsPublic: item.IsPublic ?? null }]))
  }
}

const productNotFound = (reference: string) => marketplaceError('MARKETPLACE_PRODUCT_NOT_FOUND', `No product has the MerchantProductReference ${JSON.stringify(reference)}.`)

/** Flattens parents with nested Children, and flat items linked by ParentMerchantReference. */
function flatten(body: Static<typeof UpsertProductsBody>): Entry[] {
  const items = Array.isArray(body) ? body : [body]
  const entries: Entry[] = []
  items.forEach((item, i) => {
    const path = Array.isArray(body) ? `[${i}]` : ''
    const field = (name: string) => (path ? `${path}.${name}` : name)
    const children = item.Children ?? []
    if (children.length > 0 && item.ParentMerchantReference) {
      throw marketplaceError('MARKETPLACE_PRODUCT_NESTING', `${field('Children')}: product ${JSON.stringify(item.MerchantProductReference)} is a child of ${JSON.stringify(item.ParentMerchantReference)} and so cannot have children (one level of nesting only).`, { details: [{ pointer: `/${field('Children').replace(/[[\].]+/g, '/').replace(/^\/|\/$/g, '')}`, message: 'a child cannot have children' }] })
    }
    entries.push({ input: item, path: path || 'body', parentReference: item.ParentMerchantReference ?? null })
    children.forEach((child, j) => {
      const childPath = field(`Children[${j}]`)
      if ((child.Children ?? []).length > 0) {
        throw marketplaceError('MARKETPLACE_PRODUCT_NESTING', `${childPath}.Children: child ${JSON.stringify(child.MerchantProductReference)} of ${JSON.stringify(item.MerchantProductReference)} cannot have children (one level of nesting only).`, { details: [{ pointer: `/${childPath.replace(/\[(\d+)\]/g, '/$1').replace(/^\//, '')}/Children`, message: 'a child cannot have children' }] })
      }
      if (child.ParentMerchantReference && child.ParentMerchantReference !== item.MerchantProductReference) {
        throw invalid(`${childPath}.ParentMerchantReference`, `is ${JSON.stringify(child.ParentMerchantReference)} but the child is nested in ${JSON.stringify(item.MerchantProductReference)}`)
      }
      entries.push({ input: child, path: childPath, parentReference: item.MerchantProductReference })
    })
  })
  return entries
}

export function createProductsService({ products, now }: ProductsServiceDeps) {
  /** Created items name their product by MerchantReference or (2016 clients) by the Id of the sync lists. */
  async function namedByReference(trx: MarketplaceTrx, customerId: number, items: NonNullable<Static<typeof ProductDataAckBody>['Created']>) {
    const ids = [...new Set(items.flatMap((c) => (c.MerchantReference === undefined && c.Id !== undefined ? [c.Id] : [])))]
    const byId = new Map((await products.referencesOfIds(trx, customerId, ids)).map((p) => [p.id, p.merchant_reference]))
    return items.map((c, i) => {
      if (c.MerchantReference !== undefined) return { MerchantReference: c.MerchantReference, ChannelReference: c.ChannelReference }
      if (c.Id === undefined) throw invalid(`Created[${i}].MerchantReference`, 'give MerchantReference or Id')
      const reference = byId.get(c.Id)
      if (reference === undefined) throw marketplaceError('MARKETPLACE_PRODUCT_NOT_FOUND', `Created[${i}].Id: no product has the Id ${c.Id}.`, { details: [{ pointer: `/Created/${i}/Id`, message: `no product ${c.Id}` }] })
      return { MerchantReference: reference, ChannelReference: c.ChannelReference }
    })
  }

  /**
   * Runs an acknowledgement of the channel in one transaction, with the change sequence the
   * channel had seen at its last GET (`column`), and invalidates the customer's cached sync lists.
   */
  function inAcknowledgement(principal: Principal, channelId: number, column: 'data_seen_seq' | 'offer_seen_seq', work: (trx: MarketplaceTrx, seen: number) => Promise<void>): Promise<void> {
    return products.transaction(async (trx) => {
      // Locks the customer row first: concurrent acknowledgements run one after the other, so a
      // repeated one finds the states the first wrote (a no-op) instead of failing on the unique key.
      await products.touch(trx, principal.customerId)
      await work(trx, await products.seenSeq(trx, channelId, column))
    })
  }

  const service = {
    /**
     * Merchant: creates or replaces products (parents with children, one level). All or nothing;
     * a deactivated reference is never reused (409). Returns every product written, parents first.
     */
    async upsert(principal: Principal, body: Static<typeof UpsertProductsBody>): Promise<(ProductRow & { parent_reference: string | null })[]> {
      requireMerchant(principal, 'Creating products')
      const entries = flatten(body)
      const byReference = new Map<string, Entry>()
      for (const entry of entries) {
        const ref = entry.input.MerchantProductReference
        if (byReference.has(ref)) throw invalid(`${entry.path}.MerchantProductReference`, `${JSON.stringify(ref)} appears twice in this request`)
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
      return uniqueViolationAs(() => products.transaction(async (trx) => {
        // Taken first: it locks the customer row, so concurrent upserts of one reference queue here
        // and each reads the products the one before committed (an update, not a duplicate insert).
        const seq = await products.nextSeq(trx, principal.customerId)
        const existing = new Map((await products.byMerchantReferences(principal.customerId, [...new Set([...byReference.keys(), ...parentRefs])], trx)).map((p) => [p.merchant_reference, p]))
        const withChildren = await products.hasChildren([...existing.values()].map((p) => p.id), trx)
        // Rules: parents exist (here or already), are active, and are not children themselves.
        for (const { entry } of prepared) {
          const ref = entry.input.MerchantProductReference
          const current = existing.get(ref)
          if (current && current.is_active !== 1) {
            throw marketplaceError('MARKETPLACE_PRODUCT_DEACTIVATED', `${entry.path}.MerchantProductReference: product ${JSON.stringify(ref)} was deactivated; its reference cannot be reused.`)
          }
          if (!entry.parentReference) continue
          if (entry.parentReference === ref) throw invalid(`${entry.path}.ParentMerchantReference`, 'a product cannot be its own parent')
          const parentEntry = byReference.get(entry.parentReference)
          const parentRow = existing.get(entry.parentReference)
          if (!parentEntry && !parentRow) {
            throw marketplaceError('MARKETPLACE_PRODUCT_NOT_FOUND', `${entry.path}.ParentMerchantReference: no product ${JSON.stringify(entry.parentReference)} exists or is in this request.`, { details: [{ pointer: '/ParentMerchantReference', message: `no product ${JSON.stringify(entry.parentReference)}` }] })
          }
          if (!parentEntry && parentRow && parentRow.is_active !== 1) throw invalid(`${entry.path}.ParentMerchantReference`, `parent ${JSON.stringify(entry.parentReference)} is deactivated`)
          const grandparent = parentEntry ? parentEntry.parentReference : parentRow?.parent_id ?? null
          if (grandparent !== null) {
            throw marketplaceError('MARKETPLACE_PRODUCT_NESTING', `${entry.path}: parent ${JSON.stringify(entry.parentReference)} is itself a child; products nest one level only.`)
          }
          if (current && withChildren.has(current.id)) {
            throw marketplaceError('MARKETPLACE_PRODUCT_NESTING', `${entry.path}: product ${JSON.stringify(ref)} has children and so cannot become a child of ${JSON.stringify(entry.parentReference)}.`)
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
                customer_id: principal.customerId, merchant_reference: ref, parent_id: parentId, is_active: 1,
                data: p.data, data_hash: p.dataHash, data_seq: seq, price_cents: p.price, stock: p.stock,
                offer_hash: p.offerHash, offer_seq: seq, created_at: at, updated_at: at
              })
              continue
            }
            const dataChanged = current.data_hash !== p.dataHash
            const offerChanged = current.offer_hash !== p.offerHash
            if (!dataChanged && !offerChanged) continue
            await products.update(trx, current.id, {
              parent_id: parentId, data: p.data, data_hash: p.dataHash, price_cents: p.price, stock: p.stock, offer_hash: p.offerHash,
              ...(dataChanged ? { data_seq: seq } : {}), ...(offerChanged ? { offer_seq: seq } : {}), updated_at: at
            })
          }
          for (const [ref, id] of await products.insertMany(trx, inserts)) ids.set(ref, id)
        }
        const written = await products.byMerchantReferences(principal.customerId, [...byReference.keys()], trx)
        const order = new Map(prepared.map((p, i) => [p.entry.input.MerchantProductReference, i]))
        return written
          .map((p) => ({ ...p, parent_reference: byReference.get(p.merchant_reference)?.parentReference ?? null }))
          .sort((a, b) => (order.get(a.merchant_reference) ?? 0) - (order.get(b.merchant_reference) ?? 0))
      }), () => marketplaceError('MARKETPLACE_DUPLICATE_MERCHANT_REFERENCE', 'A product in this request was created concurrently by another request; retry.'))
    },

    async get(principal: Principal, reference: string) {
      requireMerchant(principal, 'Reading a product')
      const product = await products.findWithParent(principal.customerId, reference)
      if (!product) throw productNotFound(reference)
      return product
    },

    /** Merchant: deactivates the product (and its children); it is kept and its reference stays taken. */
    async deactivate(principal: Principal, reference: string): Promise<void> {
      requireMerchant(principal, 'Deactivating a product')
      if (!(await products.deactivate(principal.customerId, reference, now()))) {
        throw productNotFound(reference)
      }
    },

    /**
     * The first step of GET /v2/products/data: records the channel's "seen up to" mark (the
     * customer's current change sequence) and returns the products version that the lists read
     * afterwards are at least as new as — the key under which their rendering may be cached.
     */
    async beginChanges(principal: Principal): Promise<{ channelId: number; version: number }> {
      const channelId = requireChannel(principal, 'Reading product changes')
      // Read with the key at the start of this request when available (one query fewer).
      const counters = principal.counters
      const state = counters && counters.dataSeenSeq !== null
        ? { version: counters.productsVersion, changeSeq: counters.changeSeq, seenSeq: counters.dataSeenSeq }
        : await products.syncState(principal.customerId, channelId)
      if (state.seenSeq < state.changeSeq) await products.markSeen(channelId, 'data_seen_seq', state.changeSeq)
      return { channelId, version: state.version }
    },

    /**
     * Channel: what to create, update and remove since its acknowledgements, one page of each list
     * (call after `beginChanges`). Reading changes no state, so a repeated GET returns the same lists.
     */
    async listChanges(principal: Principal, page: number, pageSize: number) {
      const channelId = requireChannel(principal, 'Reading product changes')
      const offset = (page - 1) * pageSize
      const list = (which: ChangeList) => products.changes(which, principal.customerId, channelId, offset, pageSize)
      const [created, updated, removed] = await Promise.all([list('created'), list('updated'), list('removed')])
      return { created: created.rows, updated: updated.rows, removed: removed.rows, totals: { created: created.total, updated: updated.total, removed: removed.total } }
    },

    /** Channel: acknowledges processed products; all or nothing. */
    async acknowledgeData(principal: Principal, body: Static<typeof ProductDataAckBody>): Promise<{ created: number; updated: number; removed: number }> {
      const channelId = requireChannel(principal, 'Acknowledging product data')
      const given = body.Created ?? []
      const updated = [...new Set(body.Updated ?? [])]
      const removed = [...new Set(body.Removed ?? [])]
      const at = now()
      await uniqueViolationAs(() => inAcknowledgement(principal, channelId, 'data_seen_seq', async (trx, seen) => {
        const created = await namedByReference(trx, principal.customerId, given)
        // Created: each product gets this channel's reference, unique per channel.
        const refOwner = new Map<string, string>()
        const productRef = new Map<string, string>()
        created.forEach((c, i) => {
          const owner = refOwner.get(c.ChannelReference)
          if (owner !== undefined && owner !== c.MerchantReference) throw marketplaceError('MARKETPLACE_DUPLICATE_CHANNEL_REFERENCE', `Created[${i}].ChannelReference ${JSON.stringify(c.ChannelReference)} is given to two products (${JSON.stringify(owner)} and ${JSON.stringify(c.MerchantReference)}).`)
          const earlier = productRef.get(c.MerchantReference)
          if (earlier !== undefined && earlier !== c.ChannelReference) throw invalid(`Created[${i}].ChannelReference`, `product ${JSON.stringify(c.MerchantReference)} is acknowledged twice with different references`)
          refOwner.set(c.ChannelReference, c.MerchantReference)
          productRef.set(c.MerchantReference, c.ChannelReference)
        })
        const rows = new Map((await products.byMerchantReferences(principal.customerId, [...productRef.keys()], trx)).map((p) => [p.merchant_reference, p]))
        const unknown = [...productRef.keys()].filter((ref) => !rows.has(ref))
        if (unknown.length > 0) {
          throw marketplaceError('MARKETPLACE_PRODUCT_NOT_FOUND', `Created: no product has the MerchantReference ${unknown.slice(0, 10).map((r) => JSON.stringify(r)).join(', ')}${unknown.length > 10 ? ` and ${unknown.length - 10} more` : ''}.`)
        }
        const productIds = [...rows.values()].map((p) => p.id)
        const byProduct = new Map((await products.statesByProducts(trx, channelId, productIds)).map((s) => [s.product_id, s.channel_reference]))
        const byReference = new Map((await products.statesByChannelReferences(trx, channelId, [...refOwner.keys()])).map((s) => [s.channel_reference, s]))
        const inserts = []
        for (const [merchantRef, channelRef] of productRef) {
          const product = rows.get(merchantRef) as ProductRow
          const already = byProduct.get(product.id)
          if (already !== undefined) {
            if (already === channelRef) continue // a retried acknowledgement: nothing to do
            throw marketplaceError('MARKETPLACE_DUPLICATE_CHANNEL_REFERENCE', `Product ${JSON.stringify(merchantRef)} was already acknowledged by this channel as ${JSON.stringify(already)}, not ${JSON.stringify(channelRef)}.`)
          }
          const taken = byReference.get(channelRef)
          if (taken) throw marketplaceError('MARKETPLACE_DUPLICATE_CHANNEL_REFERENCE', `ChannelReference ${JSON.stringify(channelRef)} is already used by product ${JSON.stringify(taken.merchant_reference)} of this channel.`)
          inserts.push({
            channel_id: channelId, product_id: product.id, channel_reference: channelRef,
            // What the channel received at its last GET; a later change stays pending as an update.
            data_hash: product.data_seq <= seen ? product.data_hash : '',
            offer_hash: product.offer_seq <= seen ? product.offer_hash : '',
            removed: 0, updated_at: at
          })
        }
        await products.insertStates(trx, inserts)

        const states = new Map((await products.statesByChannelReferences(trx, channelId, [...new Set([...updated, ...removed])])).map((s) => [s.channel_reference, s]))
        const problems: { field: string; message: string }[] = []
        updated.forEach((ref, i) => { if (!states.has(ref)) problems.push({ field: `Updated[${i}]`, message: `${JSON.stringify(ref)} was never acknowledged in Created by this channel` }) })
        removed.forEach((ref, i) => {
          const state = states.get(ref)
          if (!state) problems.push({ field: `Removed[${i}]`, message: `${JSON.stringify(ref)} was never acknowledged in Created by this channel` })
          else if (state.is_active === 1) problems.push({ field: `Removed[${i}]`, message: `product ${JSON.stringify(state.merchant_reference)} (${JSON.stringify(ref)}) is still active; only products listed in ToBeRemoved can be acknowledged as removed` })
        })
        if (problems.length > 0) {
          throw marketplaceError('MARKETPLACE_UNKNOWN_CHANNEL_REFERENCE', `${problems.length} reference${problems.length > 1 ? 's' : ''} cannot be acknowledged: ${problems.slice(0, 5).map((p) => `${p.field}: ${p.message}`).join('; ')}`, {
            details: problems.slice(0, 100).map((p) => ({ pointer: `/${p.field.replace(/\[(\d+)\]/, '/$1')}`, location: 'body', message: p.message }))
          })
        }
        await products.acknowledgeStates(trx, channelId, updated, { data: true, offer: true, removed: false }, seen, at)
        await products.acknowledgeStates(trx, channelId, removed, { data: false, offer: false, removed: true }, seen, at)
      }), () => marketplaceError('MARKETPLACE_DUPLICATE_CHANNEL_REFERENCE', 'A ChannelReference in this acknowledgement was taken concurrently by another request.'))
      return { created: given.length, updated: updated.length, removed: removed.length }
    },

    async offers(principal: Principal, page: number, pageSize: number) {
      const channelId = requireChannel(principal, 'Reading offers')
      const seq = await products.currentSeq(principal.customerId)
      await products.markSeen(channelId, 'offer_seen_seq', seq)
      return products.offers(principal.customerId, channelId, (page - 1) * pageSize, pageSize)
    },

    async acknowledgeOffers(principal: Principal, body: Static<typeof OfferAckBody>): Promise<number> {
      const channelId = requireChannel(principal, 'Acknowledging offers')
      const references = [...new Set(body)]
      await inAcknowledgement(principal, channelId, 'offer_seen_seq', async (trx, seen) => {
        const known = new Set((await products.statesByChannelReferences(trx, channelId, references)).map((s) => s.channel_reference))
        const problems = body.flatMap((ref, i) => (known.has(ref) ? [] : [{ i, ref }]))
        if (problems.length > 0) {
          throw marketplaceError('MARKETPLACE_UNKNOWN_CHANNEL_REFERENCE', `${problems.length} reference${problems.length > 1 ? 's were' : ' was'} never acknowledged in Created by this channel: ${problems.slice(0, 10).map((p) => JSON.stringify(p.ref)).join(', ')}`, {
            details: problems.slice(0, 100).map((p) => ({ pointer: `/${p.i}`, location: 'body', message: `${JSON.stringify(p.ref)} was never acknowledged in Created by this channel` }))
          })
        }
        await products.acknowledgeStates(trx, channelId, references, { data: false, offer: true, removed: false }, seen, now())
      })
      return references.length
    }
  }
  return service
}
export type ProductsService = ReturnType<typeof createProductsService>
