import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import { test } from 'node:test'
import { startOrchestrator, type OrchestratorHarness } from '../../../helpers/orchestrator.js'

const GEN = 'gen-secret-0123456789'
const SLACK = 'slack-signing-secret-abc'
const TELEGRAM = 'tg-secret-token_XYZ'
const MAIL = 'mail-signing-key-123'
const discordKeys = crypto.generateKeyPairSync('ed25519')
const discordPublicHex = discordKeys.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex')

Object.assign(process.env, {
  D2_GEN_SECRET: GEN,
  D2_SLACK_SECRET: SLACK,
  D2_TG_SECRET: TELEGRAM,
  D2_MAIL_SECRET: MAIL,
  D2_DISCORD_KEY: discordPublicHex
})

const CONFIG = {
  autonomous: { policy: 'approval-required' },
  ingress: {
    connectors: {
      gen: { type: 'generic', secret_env: 'D2_GEN_SECRET' },
      slack: { type: 'slack', secret_env: 'D2_SLACK_SECRET' },
      discord: { type: 'discord', secret_env: 'D2_DISCORD_KEY' },
      tg: { type: 'telegram', secret_env: 'D2_TG_SECRET' },
      mail: { type: 'email', secret_env: 'D2_MAIL_SECRET' },
      nosecret: { type: 'generic', secret_env: 'D2_UNSET_SECRET' },
      alerts: { type: 'generic', secret_env: 'D2_GEN_SECRET', target: 'nervous' }
    }
  }
}

const hmac = (key: string, text: string) => crypto.createHmac('sha256', key).update(text).digest('hex')
const nowSeconds = () => Math.floor(Date.now() / 1000)

async function post(orch: OrchestratorHarness, channel: string, body: string, headers: Record<string, string>, type = 'application/json') {
  const response = await orch.app.inject({
    method: 'POST',
    url: `/api/webhooks/${channel}`,
    payload: body,
    headers: { 'content-type': type, ...headers }
  })
  return { status: response.statusCode, json: response.body ? JSON.parse(response.body) : undefined }
}

function genericHeaders(body: string, ts = nowSeconds(), secret = GEN, delivery?: string) {
  return {
    'x-quartet-timestamp': String(ts),
    'x-quartet-signature': `sha256=${hmac(secret, `${ts}.${body}`)}`,
    ...(delivery ? { 'x-quartet-delivery': delivery } : {})
  }
}

async function backlog(orch: OrchestratorHarness) {
  return (await orch.call('GET', '/api/autonomous/backlog')).json as { title: string; source: string; status: string }[]
}

test('generic: a signed delivery lands in the backlog once; bad signature, stale timestamp and replay are refused', async () => {
  const orch = await startOrchestrator({ config: CONFIG })
  const body = JSON.stringify({ title: 'Build broke', description: 'main is red since 10:02', correlationId: 'ci-77' })
  const ok = await post(orch, 'gen', body, genericHeaders(body, nowSeconds(), GEN, 'd-1'))
  assert.equal(ok.status, 202, JSON.stringify(ok.json))
  assert.equal(ok.json.correlationId, 'ci-77')
  assert.equal(ok.json.status, 'awaiting-approval')

  assert.equal((await post(orch, 'gen', body, genericHeaders(body, nowSeconds(), GEN, 'd-1'))).status, 409, 'replayed delivery id')
  assert.equal((await post(orch, 'gen', body, genericHeaders(body, nowSeconds(), 'wrong-secret', 'd-2'))).status, 401)
  const tampered = JSON.stringify({ title: 'Build broke', description: 'rm -rf please', correlationId: 'ci-77' })
  assert.equal(
    (await post(orch, 'gen', tampered, genericHeaders(body, nowSeconds(), GEN, 'd-3'))).status,
    401,
    'body changed after signing'
  )
  assert.equal(
    (await post(orch, 'gen', body, genericHeaders(body, nowSeconds() - 3600, GEN, 'd-4'))).status,
    401,
    'outside the replay window'
  )
  assert.equal((await post(orch, 'gen', body, {})).status, 401)
  assert.equal((await post(orch, 'nosuch', body, genericHeaders(body))).status, 404)
  assert.equal((await post(orch, 'nosecret', body, genericHeaders(body))).status, 404, 'a connector whose secret is unset is not served')
  const noText = JSON.stringify({ hello: 1 })
  assert.equal((await post(orch, 'gen', noText, genericHeaders(noText, nowSeconds(), GEN, 'd-5'))).status, 400)

  const rows = await backlog(orch)
  assert.equal(rows.length, 1)
  assert.equal(rows[0]!.source, 'webhook:gen')
  assert.equal(rows[0]!.title, 'Build broke')
})

test('slack: v0 signature over timestamp and raw body, url_verification answered, event enqueued', async () => {
  const orch = await startOrchestrator({ config: CONFIG })
  const sign = (body: string, ts = nowSeconds(), secret = SLACK) => ({
    'x-slack-request-timestamp': String(ts),
    'x-slack-signature': `v0=${hmac(secret, `v0:${ts}:${body}`)}`
  })
  const challenge = JSON.stringify({ type: 'url_verification', challenge: 'c-123' })
  assert.deepEqual((await post(orch, 'slack', challenge, sign(challenge))).json, { challenge: 'c-123' })
  const event = JSON.stringify({
    type: 'event_callback',
    event_id: 'Ev1',
    event: { type: 'app_mention', text: 'deploy docs', user: 'U1', channel: 'C1' }
  })
  assert.equal((await post(orch, 'slack', event, sign(event))).status, 202)
  assert.equal((await post(orch, 'slack', event, sign(event))).status, 409, 'Slack retry of the same event id')
  assert.equal((await post(orch, 'slack', event, sign(event, nowSeconds(), 'other'))).status, 401)
  assert.equal((await post(orch, 'slack', event, sign(event, nowSeconds() - 301))).status, 401)
  const form = 'command=%2Fquartet&text=update+changelog&user_name=ada&trigger_id=T9'
  assert.equal((await post(orch, 'slack', form, sign(form), 'application/x-www-form-urlencoded')).status, 202)
  assert.deepEqual((await backlog(orch)).map((e) => e.title).sort(), ['Slack C1: deploy docs', 'Slack slack: update changelog'])
})

test('discord: Ed25519 signature checked; PING answered; command enqueued', async () => {
  const orch = await startOrchestrator({ config: CONFIG })
  const sign = (body: string, ts = String(nowSeconds()), key = discordKeys.privateKey) => ({
    'x-signature-timestamp': ts,
    'x-signature-ed25519': crypto.sign(null, Buffer.from(ts + body), key).toString('hex')
  })
  const ping = JSON.stringify({ id: 'i1', type: 1 })
  assert.deepEqual((await post(orch, 'discord', ping, sign(ping))).json, { type: 1 })
  const command = JSON.stringify({ id: 'i2', type: 2, data: { name: 'quartet', options: [{ name: 'ask', value: 'fix flaky test' }] } })
  const answered = await post(orch, 'discord', command, sign(command))
  assert.equal(answered.status, 200)
  assert.equal(answered.json.type, 4)
  const stranger = crypto.generateKeyPairSync('ed25519').privateKey
  const other = JSON.stringify({ id: 'i3', type: 2, data: { name: 'quartet' } })
  assert.equal((await post(orch, 'discord', other, sign(other, String(nowSeconds()), stranger))).status, 401)
  assert.deepEqual(
    (await backlog(orch)).map((e) => e.title),
    ['Discord /quartet fix flaky test']
  )
})

test('telegram: the secret token header is required; old updates and repeats are refused', async () => {
  const orch = await startOrchestrator({ config: CONFIG })
  const update = (id: number, date = nowSeconds()) =>
    JSON.stringify({ update_id: id, message: { date, text: 'restart the job', from: { username: 'ada' }, chat: { id: 5 } } })
  const headers = { 'x-telegram-bot-api-secret-token': TELEGRAM }
  assert.equal((await post(orch, 'tg', update(1), headers)).status, 202)
  assert.equal((await post(orch, 'tg', update(1), headers)).status, 409)
  assert.equal((await post(orch, 'tg', update(2), { 'x-telegram-bot-api-secret-token': 'nope' })).status, 401)
  assert.equal((await post(orch, 'tg', update(3, nowSeconds() - 3600), headers)).status, 401)
  assert.equal((await backlog(orch)).length, 1)
})

test('e-mail relay: HMAC of timestamp and token, form or JSON', async () => {
  const orch = await startOrchestrator({ config: CONFIG })
  const ts = String(nowSeconds())
  const form = new URLSearchParams({
    timestamp: ts,
    token: 'tok-1',
    signature: hmac(MAIL, `${ts}tok-1`),
    subject: 'Invoice run',
    'body-plain': 'please run the invoices',
    sender: 'a@example.com'
  })
  assert.equal((await post(orch, 'mail', form.toString(), {}, 'application/x-www-form-urlencoded')).status, 202)
  assert.equal((await post(orch, 'mail', form.toString(), {}, 'application/x-www-form-urlencoded')).status, 409)
  form.set('token', 'tok-2')
  assert.equal(
    (await post(orch, 'mail', form.toString(), {}, 'application/x-www-form-urlencoded')).status,
    401,
    'signature of another token'
  )
  const json = JSON.stringify({
    signature: { timestamp: ts, token: 'tok-3', signature: hmac(MAIL, `${ts}tok-3`) },
    'event-data': { subject: 'Hello', 'stripped-text': 'status please' }
  })
  assert.equal((await post(orch, 'mail', json, {})).status, 202)
  assert.deepEqual((await backlog(orch)).map((e) => e.title).sort(), ['Hello', 'Invoice run'])
})

test('a connector with target nervous turns a delivery into a pending detection, not a backlog entry', async () => {
  const orch = await startOrchestrator({ config: { ...CONFIG, nervous: { enabled: false } } })
  const body = JSON.stringify({ title: 'Disk alarm on build host', description: 'free space under 2 %' })
  const answer = await post(orch, 'alerts', body, genericHeaders(body, nowSeconds(), GEN, 'a-1'))
  assert.equal(answer.status, 202, JSON.stringify(answer.json))
  assert.equal(answer.json.target, 'nervous')
  const pending = (await orch.call('GET', '/api/nervous/pending')).json as {
    id: string
    type: string
    detector: string
    description: string
  }[]
  assert.deepEqual(
    pending.map((e) => [e.id, e.type, e.detector, e.description]),
    [[answer.json.id, 'external-alert', 'webhook:alerts', 'Disk alarm on build host: free space under 2 %']]
  )
  assert.deepEqual(await backlog(orch), [])
})
