const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost'])
const LOOPBACK_ADDRESSES = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

/** A bind host that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(
    host
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1')
  )
}

/** A peer address (the socket's remote address, never a forwarded header) that is this machine. */
export function isLoopbackAddress(address: string | undefined): boolean {
  return address !== undefined && LOOPBACK_ADDRESSES.has(address)
}
