/** The config file's secrets, as a reader of the file over the API sees them. */
export const REDACTED = '[redacted]'

const SECRET_PATHS: readonly (readonly string[])[] = [['api_auth_token'], ['api_oidc', 'key'], ['dashboard_oidc', 'client_secret']]

/** A copy of the raw file with every secret replaced (an OIDC viewer may read the config, not its keys). */
export function redactSecrets(raw: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(raw)
  for (const secretPath of SECRET_PATHS) {
    let node: unknown = copy
    for (const key of secretPath.slice(0, -1))
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined
    const last = secretPath[secretPath.length - 1] as string
    if (node !== null && typeof node === 'object' && last in node) (node as Record<string, unknown>)[last] = REDACTED
  }
  return copy
}
