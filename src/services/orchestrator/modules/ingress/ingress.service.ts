/**
 * Webhook ingress (docs/orchestrator.md#webhook-ingress): finds the channel's connector in
 * `ingress.connectors`, checks the delivery's proof with the secret named by `secret_env`, refuses
 * a delivery seen before (inside the replay window, deliveries are remembered by id) and hands the
 * normalised input to the autonomous backlog or to the nervous system's pending events.
 */
import type { ProjectConfig } from '../../project/config-schema.js'
import type { AutonomousRepository } from '../../state/autonomous.repository.js'
import type { ReactiveInput } from '../autonomous/autonomous.service.js'
import { DEFAULT_REPLAY_WINDOW_SECONDS, verifyDelivery, type Delivery, type Normalised } from './connectors.js'

export interface IngressDeps {
  connectors: () => ProjectConfig['ingress']['connectors']
  env: Readonly<Record<string, string | undefined>>
  deliveries: Pick<AutonomousRepository, 'firstDelivery' | 'pruneDeliveries'>
  clock: () => Date
  toAutonomous: (input: ReactiveInput, requestedBy: string) => Promise<{ id: string; correlationId: string; status: string }>
  toNervous?: (input: Normalised, channel: string) => Promise<{ id: string; status: string }>
}

export type IngressAnswer =
  | { status: 200; body: unknown }
  | { status: 202; body: { accepted: true; id: string; correlationId: string; status: string; target: string } }
  | { status: 400 | 401 | 404 | 409; body: { error: string } }

export function createIngressService(deps: IngressDeps) {
  return {
    async receive(channel: string, delivery: Omit<Delivery, 'now'>): Promise<IngressAnswer> {
      const connector = Object.hasOwn(deps.connectors(), channel) ? deps.connectors()[channel] : undefined
      const secret = connector ? deps.env[connector.secret_env] : undefined
      // A channel without a usable secret is not served at all: it looks unknown.
      if (!connector || !secret) return { status: 404, body: { error: 'unknown webhook channel' } }
      const now = deps.clock()
      const windowSeconds = connector.replay_window_seconds ?? DEFAULT_REPLAY_WINDOW_SECONDS
      const verdict = verifyDelivery(connector.type, { ...delivery, now }, secret, windowSeconds)
      if (!verdict.ok) return { status: verdict.status, body: { error: verdict.error } }
      // Deliveries older than twice the window are refused by their timestamp before they get here.
      await deps.deliveries.pruneDeliveries(new Date(now.getTime() - 2 * windowSeconds * 1000).toISOString())
      if (!(await deps.deliveries.firstDelivery(channel, verdict.deliveryId)))
        return { status: 409, body: { error: 'delivery already received' } }
      if (!verdict.input) return { status: 200, body: verdict.handshake ?? { ok: true } }
      const target = connector.target ?? 'autonomous'
      if (target === 'nervous' && deps.toNervous) {
        const event = await deps.toNervous(verdict.input, channel)
        if (verdict.handshake !== undefined) return { status: 200, body: verdict.handshake }
        return { status: 202, body: { accepted: true, id: event.id, correlationId: event.id, status: event.status, target } }
      }
      const entry = await deps.toAutonomous(
        {
          source: `webhook:${channel}`,
          title: verdict.input.title,
          description: verdict.input.description,
          payload: verdict.input.payload,
          correlationId: verdict.input.correlationId
        },
        `webhook:${channel}`
      )
      // Discord waits for an interaction response in its own shape.
      if (verdict.handshake !== undefined) return { status: 200, body: verdict.handshake }
      return {
        status: 202,
        body: { accepted: true, id: entry.id, correlationId: entry.correlationId, status: entry.status, target: 'autonomous' }
      }
    }
  }
}
export type IngressService = ReturnType<typeof createIngressService>
