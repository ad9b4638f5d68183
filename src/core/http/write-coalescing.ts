import type { App } from './app.js'

/**
 * Responses that are ready in one turn of the event loop are written together at its end (a
 * `setImmediate`), instead of each as soon as its handler returns.
 *
 * Why: on loopback, and on virtual machines generally, a large share of a small response's cost
 * is the kernel waking the reader (a third of the trips read's busy time in its CPU profile): a
 * write to a client asleep in its poll call pays for waking it, an inter-processor interrupt that
 * is expensive under a hypervisor. Written one by one, spread over a turn that serves many
 * connections, nearly every response wakes its reader; written in one burst, the first wakes it
 * and the others find it running. Measured on the trips tour read at 50 connections
 * (docs/performance.md): 76 → 41 µs of server CPU per request, 12.9k → 23.3k req/s, p50 3 → 2 ms;
 * with one connection nothing changes (one response per turn).
 *
 * A response waits for the rest of the turn that produced it — work the server does anyway before
 * it reads the next requests — or, when it was produced in a `setImmediate` callback itself (a
 * write answered after SQLite's group commit), until the same phase of the next turn.
 */
export function coalesceResponseWrites(app: App): void {
  let pending: Array<() => void> = []
  const writeAll = () => {
    const batch = pending
    pending = []
    for (const write of batch) {
      try {
        write()
      } catch (error) {
        // One response that fails to write must not keep the others of the turn unsent.
        app.log.error({ err: error }, 'writing a response failed')
      }
    }
  }
  app.addHook('onSend', (_request, _reply, payload, done) => {
    if (pending.push(() => done(null, payload)) === 1) setImmediate(writeAll)
  })
}
