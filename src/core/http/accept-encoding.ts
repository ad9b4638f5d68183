/**
 * Whether an Accept-Encoding header admits gzip: `gzip` or `*` listed without `q=0`
 * (RFC 9110 §12.5.3; an explicit `gzip;q=0` wins over `*`, coding names are case-insensitive).
 * Hand-written because @fastify/accept-negotiator 2.1 (in the tree via @fastify/static) answers
 * gzip for `gzip;q=0, *` and nothing for `GZIP`.
 */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (header === undefined) return false
  let wildcard = false
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';')
    const name = coding.trim()
    if (name !== 'gzip' && name !== 'x-gzip' && name !== '*') continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const accepted = q === undefined || Number(q.slice(2)) > 0
    if (name === '*') wildcard = accepted
    else return accepted
  }
  return wildcard
}
