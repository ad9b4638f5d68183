import net from 'node:net'

export type TcpProxy = Awaited<ReturnType<typeof startProxy>>

/** A TCP proxy on loopback the test can cut (every connection destroyed, nothing accepted) and restore on the same port. */
export async function startProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>()
  let server: net.Server | undefined
  let port = 0
  function track(socket: net.Socket) {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  async function listen() {
    if (server?.listening) return
    server = net.createServer((client) => {
      const upstream = net.connect(target)
      track(client)
      track(upstream)
      client.pipe(upstream).pipe(client)
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
    })
    await new Promise<void>((resolve, reject) => server?.once('error', reject).listen(port, '127.0.0.1', resolve))
    port = (server.address() as net.AddressInfo).port
  }
  await listen()
  return {
    get port() {
      return port
    },
    async cut() {
      if (!server?.listening) return
      const closing = new Promise<void>((resolve) => server?.close(() => resolve()))
      for (const socket of sockets) socket.destroy()
      await closing
    },
    restore: listen
  }
}
