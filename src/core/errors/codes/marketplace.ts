/** Error codes of the marketplace service (filled by the marketplace issue). */
export const marketplaceErrors = {} as const
