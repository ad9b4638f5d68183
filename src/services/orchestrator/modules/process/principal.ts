/**
 * Who is calling. The bearer gate has already verified the token before any route runs; the
 * server knows one local principal today, so every verified caller is actor "api-static" in
 * tenant "local". Scope is always taken from here — never from a body, query or path.
 */
export interface Principal {
  actor: string
  tenantId: string
}

export const LOCAL_PRINCIPAL: Principal = Object.freeze({ actor: 'api-static', tenantId: 'local' })

export function principalOf(_request: unknown): Principal {
  return LOCAL_PRINCIPAL
}
