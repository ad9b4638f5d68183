import { invalid } from '../errors.js'

/**
 * The 2016 "Merchant:"/"Channel:" clients name a few fields differently from the seed (e.g.
 * MerchantReference for a product's or shipment's MerchantProductReference/MerchantShipmentReference).
 * Before validation, a field sent only under the other name is moved to the seed's name, so the
 * services see one shape; the same field under both names with different values is a 400.
 */
export function moveAlias(target: unknown, from: string, to: string, path: string): void {
  if (target === null || typeof target !== 'object' || Array.isArray(target)) return
  const record = target as Record<string, unknown>
  if (record[from] === undefined) return
  if (record[to] !== undefined && record[to] !== record[from]) {
    throw invalid(`${path}${to}`, `differs from ${from} (${JSON.stringify(record[from])}); they name the same thing, send one`)
  }
  record[to] = record[from]
  delete record[from]
}

/** `moveAlias` on every item of a list (e.g. each product of a POST /v2/products array). */
export function moveAliasInEach(list: unknown, from: string, to: string, prefix = ''): void {
  if (!Array.isArray(list)) return
  list.forEach((item, i) => moveAlias(item, from, to, `${prefix}[${i}].`))
}
