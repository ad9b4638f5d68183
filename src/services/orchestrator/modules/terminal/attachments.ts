/**
 * Clients attached to sessions: the output fan-out with backpressure and the outbound quota, and
 * the input path with the prompt-injection guard. A client is attached to at most one session;
 * detaching (the socket closed, another attach) never touches the session's process.
 */
import type { Principal } from '../../principal.js'
import { scanInput } from './guard.js'
import type { OutboundQuota } from './outbound-quota.js'
import type { Session } from './session.js'

export type ServerFrame =
  | { t: 'output'; data: string }
  | { t: 'attached'; sessionId: string }
  | { t: 'exit'; sessionId: string; exitCode: number | null; reason?: string }
  | { t: 'error'; error: string }
  | { t: 'guard_block'; patterns: { patternId: string; offset: number }[] }
  | { t: 'outbound_warn'; bytesUsed: number; bytesRemaining: number }
  | { t: 'outbound_kill'; bytesUsed: number }

/** One socket as the service sees it. */
export interface TerminalClient {
  send(frame: ServerFrame): void
  /** Bytes queued on the socket and not yet sent. */
  bufferedAmount(): number
  close(code: number, reason: string): void
}

/** Above this many queued bytes a client's output is no longer sent but coalesced into the screen model. */
export const BUFFERED_THRESHOLD = 1_000_000

export const CLOSE_QUOTA = 4429

interface Attachment {
  session: Session
  caller: Principal
  /** Output arriving while the snapshot is being taken: sent after it, in order. */
  pending: string[] | null
  /** Output was skipped under backpressure: the next send is a fresh snapshot instead. */
  behind: boolean
}

interface Deps {
  quota: OutboundQuota
  quotaLimit: () => number
  audit(
    caller: Pick<Principal, 'tenantId' | 'id'>,
    action: string,
    sessionId: string | null,
    detail?: Record<string, unknown>
  ): Promise<void>
  touch(session: Session): void
}

export function createAttachments(deps: Deps) {
  const byClient = new Map<TerminalClient, Attachment>()

  function clientsOf(session: Session): [TerminalClient, Attachment][] {
    return [...byClient].filter(([, a]) => a.session === session)
  }

  /** Sends output, counting it against the tenant's quota; false once the client was closed for quota. */
  function deliver(client: TerminalClient, attachment: Attachment, data: string): boolean {
    const tenant = attachment.caller.tenantId
    const verdict = deps.quota.add(tenant, Buffer.byteLength(data), deps.quotaLimit())
    if (verdict.state === 'kill') {
      if (verdict.warnDue) warn(client, attachment, verdict.bytesUsed, 0)
      quotaKill(tenant, verdict.bytesUsed)
      return false
    }
    client.send({ t: 'output', data })
    if (verdict.state === 'warn') warn(client, attachment, verdict.bytesUsed, verdict.bytesRemaining)
    return true
  }

  function warn(client: TerminalClient, attachment: Attachment, bytesUsed: number, bytesRemaining: number): void {
    client.send({ t: 'outbound_warn', bytesUsed, bytesRemaining })
    void deps.audit(attachment.caller, 'quota.warn', attachment.session.meta.id, { bytesUsed })
  }

  function quotaKill(tenant: string, bytesUsed: number): void {
    for (const [client, attachment] of [...byClient]) {
      if (attachment.caller.tenantId !== tenant) continue
      byClient.delete(client)
      client.send({ t: 'outbound_kill', bytesUsed })
      // Closed once the kill is in the audit trail (audit failures are logged, never thrown): whoever
      // saw the 4429 finds its record.
      void deps
        .audit(attachment.caller, 'quota.kill', attachment.session.meta.id, { bytesUsed })
        .finally(() => client.close(CLOSE_QUOTA, 'outbound quota exceeded'))
    }
  }

  async function sendSnapshot(client: TerminalClient, attachment: Attachment): Promise<void> {
    attachment.pending = []
    const screen = await attachment.session.screen.snapshot()
    if (byClient.get(client) !== attachment) return
    const pending = attachment.pending
    attachment.pending = null
    attachment.behind = false
    if (!deliver(client, attachment, screen)) return
    for (const data of pending) if (!deliver(client, attachment, data)) return
  }

  return {
    count: (session: Session) => clientsOf(session).length,

    async attach(caller: Principal, client: TerminalClient, session: Session): Promise<boolean> {
      const previous = byClient.get(client)
      if (previous) void deps.audit(caller, 'session.detach', previous.session.meta.id)
      await deps.quota.load(caller.tenantId)
      if (deps.quota.exhausted(caller.tenantId, deps.quotaLimit())) {
        byClient.delete(client)
        client.send({ t: 'outbound_kill', bytesUsed: deps.quota.used(caller.tenantId) })
        client.close(CLOSE_QUOTA, 'outbound quota exceeded')
        return false
      }
      const attachment: Attachment = { session, caller, pending: null, behind: false }
      byClient.set(client, attachment)
      deps.touch(session)
      client.send({ t: 'attached', sessionId: session.meta.id })
      await deps.audit(caller, 'session.attach', session.meta.id)
      await sendSnapshot(client, attachment)
      if (session.meta.status === 'exited') client.send({ t: 'exit', sessionId: session.meta.id, exitCode: session.meta.exitCode ?? null })
      return true
    },

    output(session: Session, data: string): void {
      for (const [client, attachment] of clientsOf(session)) {
        if (attachment.pending) {
          attachment.pending.push(data)
          continue
        }
        if (attachment.behind || client.bufferedAmount() > BUFFERED_THRESHOLD) {
          attachment.behind = true
          continue
        }
        deliver(client, attachment, data)
      }
    },

    /** Clients that fell behind get one fresh snapshot once their socket drained. */
    tick(): void {
      for (const [client, attachment] of byClient) {
        if (attachment.behind && !attachment.pending && client.bufferedAmount() < BUFFERED_THRESHOLD / 2)
          void sendSnapshot(client, attachment)
      }
    },

    input(client: TerminalClient, data: string): void {
      const attachment = byClient.get(client)
      if (!attachment || attachment.session.meta.status !== 'running') return
      const hits = scanInput(data)
      if (hits.length > 0) {
        client.send({ t: 'guard_block', patterns: hits })
        void deps.audit(attachment.caller, 'guard.block', attachment.session.meta.id, {
          patterns: hits.map((hit) => hit.patternId),
          bytes: Buffer.byteLength(data)
        })
        return
      }
      deps.touch(attachment.session)
      attachment.session.pty.write(data)
    },

    resize(client: TerminalClient, cols: number, rows: number): void {
      const attachment = byClient.get(client)
      if (!attachment || attachment.session.meta.status !== 'running') return
      attachment.session.pty.resize(cols, rows)
      attachment.session.screen.resize(cols, rows)
    },

    detach(client: TerminalClient): void {
      const attachment = byClient.get(client)
      if (!attachment) return
      byClient.delete(client)
      void deps.audit(attachment.caller, 'session.detach', attachment.session.meta.id)
    },

    exited(session: Session, exitCode: number): void {
      for (const [client] of clientsOf(session)) client.send({ t: 'exit', sessionId: session.meta.id, exitCode })
    },

    sessionEnded(session: Session, reason: string): void {
      for (const [client] of clientsOf(session)) {
        byClient.delete(client)
        client.send({ t: 'exit', sessionId: session.meta.id, exitCode: session.meta.exitCode ?? null, reason })
      }
    }
  }
}
