import type { Static } from 'typebox'
import type { MarketplaceTrx, ProductRow } from '../../db.js'
import { invalid, marketplaceError, uniqueViolationAs } from '../../errors.js'
import { requireChannel, type Principal } from '../keys/keys.service.js'
import type { OfferAckBody, ProductDataAckBody } from './products.schemas.js'
import type { ChangeList } from './products.repository.js'
import type { ProductsServiceDeps } from './products.deps.js'

/** The channel side of the products service: change lists, offers and their acknowledgements. */
export function createProductSync({ products, now }: ProductsServiceDeps) {
  /** Created items name their product by MerchantReference or (2016 clients) by the Id of the sync lists. */
  async function namedByReference(
    trx: MarketplaceTrx,
    customerId: number,
    items: NonNullable<Static<typeof ProductDataAckBody>['Created']>
  ) {
    const ids = [...new Set(items.flatMap((c) => (c.MerchantReference === undefined && c.Id !== undefined ? [c.Id] : [])))]
    const byId = new Map((await products.referencesOfIds(trx, customerId, ids)).map((p) => [p.id, p.merchant_reference]))
    return items.map((c, i) => {
      if (c.MerchantReference !== undefined) return { MerchantReference: c.MerchantReference, ChannelReference: c.ChannelReference }
      if (c.Id === undefined) throw invalid(`Created[${i}].MerchantReference`, 'give MerchantReference or Id')
      const reference = byId.get(c.Id)
      if (reference === undefined)
        throw marketplaceError('MARKETPLACE_PRODUCT_NOT_FOUND', `Created[${i}].Id: no product has the Id ${c.Id}.`, {
          details: [{ pointer: `/Created/${i}/Id`, message: `no product ${c.Id}` }]
        })
      return { MerchantReference: reference, ChannelReference: c.ChannelReference }
    })
  }

  /**
   * Runs an acknowledgement of the channel in one transaction, with the change sequence the
   * channel had seen at its last GET (`column`), and invalidates the customer's cached sync lists.
   */
  function inAcknowledgement(
    principal: Principal,
    channelId: number,
    column: 'data_seen_seq' | 'offer_seen_seq',
    work: (trx: MarketplaceTrx, seen: number) => Promise<void>
  ): Promise<void> {
    return products.transaction(async (trx) => {
      // Locks the customer row first: concurrent acknowledgements run one after the other, so a
      // repeated one finds the states the first wrote (a no-op) instead of failing on the unique key.
      await products.touch(trx, principal.customerId)
      await work(trx, await products.seenSeq(trx, channelId, column))
    })
  }

  return {
    /**
     * The first step of GET /v2/products/data: records the channel's "seen up to" mark (the
     * customer's current change sequence) and returns the products version that the lists read
     * afterwards are at least as new as — the key under which their rendering may be cached.
     */
    async beginChanges(principal: Principal): Promise<{ channelId: number; version: number }> {
      const channelId = requireChannel(principal, 'Reading product changes')
      // Read with the key at the start of this request when available (one query fewer).
      const counters = principal.counters
      const state =
        counters && counters.dataSeenSeq !== null
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
      return {
        created: created.rows,
        updated: updated.rows,
        removed: removed.rows,
        totals: { created: created.total, updated: updated.total, removed: removed.total }
      }
    },

    /** Channel: acknowledges processed products; all or nothing. */
    async acknowledgeData(
      principal: Principal,
      body: Static<typeof ProductDataAckBody>
    ): Promise<{ created: number; updated: number; removed: number }> {
      const channelId = requireChannel(principal, 'Acknowledging product data')
      const given = body.Created ?? []
      const updated = [...new Set(body.Updated ?? [])]
      const removed = [...new Set(body.Removed ?? [])]
      const at = now()
      await uniqueViolationAs(
        () =>
          inAcknowledgement(principal, channelId, 'data_seen_seq', async (trx, seen) => {
            const created = await namedByReference(trx, principal.customerId, given)
            // Created: each product gets this channel's reference, unique per channel.
            const refOwner = new Map<string, string>()
            const productRef = new Map<string, string>()
            created.forEach((c, i) => {
              const owner = refOwner.get(c.ChannelReference)
              if (owner !== undefined && owner !== c.MerchantReference)
                throw marketplaceError(
                  'MARKETPLACE_DUPLICATE_CHANNEL_REFERENCE',
                  `Created[${i}].ChannelReference ${JSON.stringify(c.ChannelReference)} ` +
                    `is given to two products (${JSON.stringify(owner)} and ${JSON.stringify(c.MerchantReference)}).`
                )
              const earlier = productRef.get(c.MerchantReference)
              if (earlier !== undefined && earlier !== c.ChannelReference)
                throw invalid(
                  `Created[${i}].ChannelReference`,
                  `product ${JSON.stringify(c.MerchantReference)} is acknowledged twice with different references`
                )
              refOwner.set(c.ChannelReference, c.MerchantReference)
              productRef.set(c.MerchantReference, c.ChannelReference)
            })
            const rows = new Map(
              (await products.byMerchantReferences(principal.customerId, [...productRef.keys()], trx)).map((p) => [p.merchant_reference, p])
            )
            const unknown = [...productRef.keys()].filter((ref) => !rows.has(ref))
            if (unknown.length > 0) {
              throw marketplaceError(
                'MARKETPLACE_PRODUCT_NOT_FOUND',
                `Created: no product has the MerchantReference ${unknown
                  .slice(0, 10)
                  .map((r) => JSON.stringify(r))
                  .join(', ')}${unknown.length > 10 ? ` and ${unknown.length - 10} more` : ''}.`
              )
            }
            const productIds = [...rows.values()].map((p) => p.id)
            const byProduct = new Map(
              (await products.statesByProducts(trx, channelId, productIds)).map((s) => [s.product_id, s.channel_reference])
            )
            const byReference = new Map(
              (await products.statesByChannelReferences(trx, channelId, [...refOwner.keys()])).map((s) => [s.channel_reference, s])
            )
            const inserts = []
            for (const [merchantRef, channelRef] of productRef) {
              const product = rows.get(merchantRef) as ProductRow
              const already = byProduct.get(product.id)
              if (already !== undefined) {
                if (already === channelRef) continue // a retried acknowledgement: nothing to do
                throw marketplaceError(
                  'MARKETPLACE_DUPLICATE_CHANNEL_REFERENCE',
                  `Product ${JSON.stringify(merchantRef)} was already acknowledged by this channel ` +
                    `as ${JSON.stringify(already)}, not ${JSON.stringify(channelRef)}.`
                )
              }
              const taken = byReference.get(channelRef)
              if (taken)
                throw marketplaceError(
                  'MARKETPLACE_DUPLICATE_CHANNEL_REFERENCE',
                  `ChannelReference ${JSON.stringify(channelRef)} ` +
                    `is already used by product ${JSON.stringify(taken.merchant_reference)} of this channel.`
                )
              inserts.push({
                channel_id: channelId,
                product_id: product.id,
                channel_reference: channelRef,
                // What the channel received at its last GET; a later change stays pending as an update.
                data_hash: product.data_seq <= seen ? product.data_hash : '',
                offer_hash: product.offer_seq <= seen ? product.offer_hash : '',
                removed: 0,
                updated_at: at
              })
            }
            await products.insertStates(trx, inserts)

            const states = new Map(
              (await products.statesByChannelReferences(trx, channelId, [...new Set([...updated, ...removed])])).map((s) => [
                s.channel_reference,
                s
              ])
            )
            const problems: { field: string; message: string }[] = []
            updated.forEach((ref, i) => {
              if (!states.has(ref))
                problems.push({
                  field: `Updated[${i}]`,
                  message: `${JSON.stringify(ref)} was never acknowledged in Created by this channel`
                })
            })
            removed.forEach((ref, i) => {
              const state = states.get(ref)
              if (!state)
                problems.push({
                  field: `Removed[${i}]`,
                  message: `${JSON.stringify(ref)} was never acknowledged in Created by this channel`
                })
              else if (state.is_active === 1)
                problems.push({
                  field: `Removed[${i}]`,
                  message:
                    `product ${JSON.stringify(state.merchant_reference)} (${JSON.stringify(ref)}) is still active; ` +
                    'only products listed in ToBeRemoved can be acknowledged as removed'
                })
            })
            if (problems.length > 0) {
              throw marketplaceError(
                'MARKETPLACE_UNKNOWN_CHANNEL_REFERENCE',
                `${problems.length} reference${problems.length > 1 ? 's' : ''} cannot be acknowledged: ${problems
                  .slice(0, 5)
                  .map((p) => `${p.field}: ${p.message}`)
                  .join('; ')}`,
                {
                  details: problems
                    .slice(0, 100)
                    .map((p) => ({ pointer: `/${p.field.replace(/\[(\d+)\]/, '/$1')}`, location: 'body', message: p.message }))
                }
              )
            }
            await products.acknowledgeStates(trx, channelId, updated, { data: true, offer: true, removed: false }, seen, at)
            await products.acknowledgeStates(trx, channelId, removed, { data: false, offer: false, removed: true }, seen, at)
          }),
        () =>
          marketplaceError(
            'MARKETPLACE_DUPLICATE_CHANNEL_REFERENCE',
            'A ChannelReference in this acknowledgement was taken concurrently by another request.'
          )
      )
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
          throw marketplaceError(
            'MARKETPLACE_UNKNOWN_CHANNEL_REFERENCE',
            `${problems.length} reference${problems.length > 1 ? 's were' : ' was'} never acknowledged in Created by this channel: ` +
              `${problems
                .slice(0, 10)
                .map((p) => JSON.stringify(p.ref))
                .join(', ')}`,
            {
              details: problems.slice(0, 100).map((p) => ({
                pointer: `/${p.i}`,
                location: 'body',
                message: `${JSON.stringify(p.ref)} was never acknowledged in Created by this channel`
              }))
            }
          )
        }
        await products.acknowledgeStates(trx, channelId, references, { data: false, offer: true, removed: false }, seen, now())
      })
      return references.length
    }
  }
}
