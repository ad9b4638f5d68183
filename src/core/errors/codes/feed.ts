/** Error codes of the feed service (filled by the feed issue). */
export const feedErrors = {} as const
