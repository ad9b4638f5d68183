/** The JSON text columns (order, fulfilment and product data) and the typed values read from them. */
export type StoredJson = Record<string, unknown>

export const parseStored = (text: string): StoredJson => JSON.parse(text) as StoredJson
export const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null)
export const numberOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null)
