/**
 * The connectors of POST /api/webhooks/:channel: each checks a delivery's proof and freshness,
 * names the delivery (for replay refusal), and normalises the platform's payload into reactive
 * input. Platform handshakes (Slack's url_verification, Discord's PING) are answered as the
 * platform expects and enqueue nothing.
 */
import { ed25519Valid, epochSeconds, hmacHex, sameSecret } from './signatures.js'

export type ConnectorType = 'generic' | 'slack' | 'discord' | 'telegram' | 'email'

export interface Delivery {
  headers: Record<string, string | string[] | undefined>
  raw: Buffer
  /** The body parsed by its content type (JSON or form), or null when it is neither. */
  body: Record<string, unknown> | null
  now: Date
}

export interface Normalised {
  title: string
  description: string
  payload: unknown
  correlationId?: string
}

export type Verdict =
  { ok: true; deliveryId: string; handshake?: unknown; input?: Normalised } | { ok: false; status: 400 | 401; error: string }

const header = (d: Delivery, name: string): string | undefined => {
  const value = d.headers[name]
  return Array.isArray(value) ? value[0] : value
}
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined)
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}

const refused = (error: string): Verdict => ({ ok: false, status: 401, error })
const invalid = (error: string): Verdict => ({ ok: false, status: 400, error })

function fresh(seconds: number | null, now: Date, windowSeconds: number): boolean {
  return seconds !== null && Math.abs(now.getTime() / 1000 - seconds) <= windowSeconds
}

function describe(input: { title?: string | undefined; description?: string | undefined }): Normalised | null {
  const description = input.description ?? input.title
  if (!description) return null
  return { title: (input.title ?? description).slice(0, 200), description: description.slice(0, 20_000), payload: null }
}

function generic(d: Delivery, secret: string, windowSeconds: number): Verdict {
  const timestamp = epochSeconds(header(d, 'x-quartet-timestamp'))
  const signature = header(d, 'x-quartet-signature') ?? ''
  if (!sameSecret(signature, `sha256=${hmacHex(secret, Buffer.concat([Buffer.from(`${timestamp ?? ''}.`), d.raw]))}`))
    return refused('invalid signature')
  if (!fresh(timestamp, d.now, windowSeconds)) return refused('stale delivery')
  const body = d.body
  if (!body) return invalid('the body must be a JSON object')
  const normalised = describe({ title: text(body.title), description: text(body.description) ?? text(body.text) })
  if (!normalised) return invalid('description (or text) is required')
  const correlationId = text(body.correlationId)
  return {
    ok: true,
    deliveryId: text(header(d, 'x-quartet-delivery')) ?? signature,
    input: {
      ...normalised,
      payload: body.payload ?? null,
      ...(correlationId && /^[A-Za-z0-9._:-]{1,200}$/.test(correlationId) ? { correlationId } : {})
    }
  }
}

function slack(d: Delivery, secret: string, windowSeconds: number): Verdict {
  const timestamp = header(d, 'x-slack-request-timestamp') ?? ''
  const signature = header(d, 'x-slack-signature') ?? ''
  if (!sameSecret(signature, `v0=${hmacHex(secret, Buffer.concat([Buffer.from(`v0:${timestamp}:`), d.raw]))}`))
    return refused('invalid signature')
  if (!fresh(epochSeconds(timestamp), d.now, windowSeconds)) return refused('stale delivery')
  const body = d.body
  if (!body) return invalid('unreadable Slack payload')
  if (body.type === 'url_verification')
    return { ok: true, deliveryId: `challenge:${signature}`, handshake: { challenge: text(body.challenge) ?? '' } }
  const event = record(body.event)
  const message = text(event.text) ?? text(body.text)
  if (!message) return invalid('the Slack payload carries no text')
  const who = text(event.user) ?? text(body.user_name) ?? 'someone'
  const where = text(event.channel) ?? text(body.channel_name) ?? 'slack'
  return {
    ok: true,
    deliveryId: text(body.event_id) ?? text(body.trigger_id) ?? signature,
    input: {
      title: `Slack ${where}: ${message}`.slice(0, 200),
      description: message,
      payload: { platform: 'slack', user: who, channel: where, command: text(body.command) ?? null }
    }
  }
}

function discord(d: Delivery, publicKey: string, windowSeconds: number): Verdict {
  const timestamp = header(d, 'x-signature-timestamp') ?? ''
  const signature = header(d, 'x-signature-ed25519') ?? ''
  if (!ed25519Valid(publicKey, signature, Buffer.concat([Buffer.from(timestamp), d.raw]))) return refused('invalid signature')
  if (!fresh(epochSeconds(timestamp), d.now, windowSeconds)) return refused('stale delivery')
  const body = d.body
  if (!body) return invalid('unreadable Discord interaction')
  const id = text(body.id) ?? signature
  if (body.type === 1) return { ok: true, deliveryId: `ping:${id}`, handshake: { type: 1 } }
  const data = record(body.data)
  const options = Array.isArray(data.options) ? data.options.map(record) : []
  const words = options.map((o) => (typeof o.value === 'string' || typeof o.value === 'number' ? String(o.value) : '')).filter(Boolean)
  const name = text(data.name)
  if (!name) return invalid('the Discord interaction names no command')
  const description = [name, ...words].join(' ')
  const user = record(record(body.member).user)
  return {
    ok: true,
    deliveryId: id,
    handshake: { type: 4, data: { content: 'Queued for the orchestrator.' } },
    input: {
      title: `Discord /${description}`.slice(0, 200),
      description,
      payload: { platform: 'discord', user: text(user.username) ?? null, guild: text(body.guild_id) ?? null }
    }
  }
}

function telegram(d: Delivery, secret: string, windowSeconds: number): Verdict {
  if (!sameSecret(header(d, 'x-telegram-bot-api-secret-token') ?? '', secret)) return refused('invalid secret token')
  const body = d.body
  if (!body || typeof body.update_id !== 'number') return invalid('not a Telegram update')
  const message = record(body.message ?? body.channel_post)
  if (!fresh(epochSeconds(message.date), d.now, windowSeconds)) return refused('stale delivery')
  const said = text(message.text)
  if (!said) return invalid('the Telegram update carries no text')
  const from = record(message.from)
  return {
    ok: true,
    deliveryId: String(body.update_id),
    input: {
      title: `Telegram: ${said}`.slice(0, 200),
      description: said,
      payload: { platform: 'telegram', from: text(from.username) ?? null, chat: record(message.chat).id ?? null }
    }
  }
}

/** An e-mail relay (Mailgun's scheme): HMAC of timestamp + token, in the body's fields or its `signature` object. */
function email(d: Delivery, secret: string, windowSeconds: number): Verdict {
  const body = d.body
  if (!body) return refused('invalid signature')
  const proof = typeof body.signature === 'object' && body.signature !== null ? record(body.signature) : body
  const timestamp = text(proof.timestamp) ?? ''
  const token = text(proof.token) ?? ''
  const signature = text(proof.signature) ?? ''
  if (token === '' || !sameSecret(signature, hmacHex(secret, `${timestamp}${token}`))) return refused('invalid signature')
  if (!fresh(epochSeconds(timestamp), d.now, windowSeconds)) return refused('stale delivery')
  const mail = record(body['event-data'] ?? body)
  const subject = text(mail.subject) ?? text(record(mail.message).subject)
  const content = text(mail['stripped-text']) ?? text(mail['body-plain']) ?? subject
  if (!content) return invalid('the e-mail has neither subject nor text')
  return {
    ok: true,
    deliveryId: token,
    input: {
      title: (subject ?? content).slice(0, 200),
      description: content.slice(0, 20_000),
      payload: { platform: 'email', from: text(mail.sender) ?? text(mail.from) ?? null }
    }
  }
}

export const DEFAULT_REPLAY_WINDOW_SECONDS = 300

export function verifyDelivery(
  type: ConnectorType,
  delivery: Delivery,
  secret: string,
  windowSeconds = DEFAULT_REPLAY_WINDOW_SECONDS
): Verdict {
  switch (type) {
    case 'generic':
      return generic(delivery, secret, windowSeconds)
    case 'slack':
      return slack(delivery, secret, windowSeconds)
    case 'discord':
      return discord(delivery, secret, windowSeconds)
    case 'telegram':
      return telegram(delivery, secret, windowSeconds)
    case 'email':
      return email(delivery, secret, windowSeconds)
  }
}
