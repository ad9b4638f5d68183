import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { chat, probe, type ProviderAgent } from '../../../../src/services/orchestrator/engine/providers/client.js'
import { ProviderError } from '../../../../src/services/orchestrator/engine/providers/errors.js'
import { nodePlatform, ollamaAnswer, openAiAnswer, startScriptedServer, type ScriptedServer } from './peers.js'

let server: ScriptedServer
before(async () => {
  server = await startScriptedServer()
})
after(() => server.close())

const messages = [{ role: 'user' as const, content: 'hello' }]
const env = { TEST_PROVIDER_KEY: 'sk-test-123' }

function openai(extra: Partial<ProviderAgent> = {}): ProviderAgent {
  return { kind: 'openai-compatible', base_url: server.baseUrl, model: 'gpt-test', api_key_env: 'TEST_PROVIDER_KEY', ...extra }
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e
  )
  assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`)
  return error
}

test('openai-compatible: POST /v1/chat/completions with bearer and settings; usage and price-based cost', async () => {
  server.replies.push(openAiAnswer('hi there', { prompt_tokens: 1000, completion_tokens: 500 }))
  const result = await chat(
    openai({ temperature: 0.2, max_tokens: 64, price_per_mtok: { input: 3, output: 15 } }),
    messages,
    { env },
    nodePlatform
  )
  const request = server.requests.at(-1)!
  assert.equal(request.method, 'POST')
  assert.equal(request.url, '/v1/chat/completions')
  assert.equal(request.headers.authorization, 'Bearer sk-test-123')
  assert.deepEqual(request.body, { model: 'gpt-test', messages, stream: false, temperature: 0.2, max_tokens: 64 })
  assert.equal(result.text, 'hi there')
  assert.deepEqual(result.usage, { inputTokens: 1000, outputTokens: 500, costUsd: 0.0105, model: 'test-model' })
})

test(
  'openai-compatible: base_url ending in /v1 is not doubled; ' + 'a reported usage.cost wins over the price; no price → null cost',
  async () => {
    server.replies.push(openAiAnswer('a', { prompt_tokens: 3, completion_tokens: 4, cost: 0.25 }), openAiAnswer('b'))
    const priced = await chat(
      openai({ base_url: `${server.baseUrl}/v1/`, price_per_mtok: { input: 1, output: 1 } }),
      messages,
      { env },
      nodePlatform
    )
    assert.equal(server.requests.at(-1)!.url, '/v1/chat/completions')
    assert.equal(priced.usage.costUsd, 0.25)
    const unpriced = await chat(openai({ api_key_env: undefined }), messages, {}, nodePlatform)
    assert.equal(unpriced.usage.costUsd, null)
    assert.equal(server.requests.at(-1)!.headers.authorization, undefined)
  }
)

test('errors: 429 with Retry-After is transient with the delay; 500 transient; 400 not; malformed JSON not', async () => {
  server.replies.push({ status: 429, headers: { 'retry-after': '7' }, body: { error: { message: 'slow down' } } })
  const limited = await failure(chat(openai(), messages, { env }, nodePlatform))
  assert.deepEqual([limited.transient, limited.status, limited.retryAfterMs, limited.code], [true, 429, 7000, 'http'])
  assert.match(limited.message, /HTTP 429: slow down/)

  server.replies.push({ status: 500, body: 'upstream exploded' })
  const broken = await failure(chat(openai(), messages, { env }, nodePlatform))
  assert.deepEqual([broken.transient, broken.status, broken.retryAfterMs], [true, 500, undefined])
  assert.match(broken.message, /upstream exploded/)

  server.replies.push({ status: 400, body: { error: { message: 'unknown model' } } })
  const bad = await failure(chat(openai(), messages, { env }, nodePlatform))
  assert.deepEqual([bad.transient, bad.status], [false, 400])

  server.replies.push({ status: 200, body: '{"choices": [' })
  const malformed = await failure(chat(openai(), messages, { env }, nodePlatform))
  assert.deepEqual([malformed.transient, malformed.code], [false, 'malformed'])

  server.replies.push({ status: 200, body: { choices: [] } })
  const empty = await failure(chat(openai(), messages, { env }, nodePlatform))
  assert.equal(empty.code, 'malformed')
})

test('errors: timeout and reset connection are transient; cancellation is not; missing key variable is a config error', async () => {
  server.replies.push({ delayMs: 1500, ...openAiAnswer('late') })
  const slow = await failure(chat(openai(), messages, { env, timeoutMs: 100 }, nodePlatform))
  assert.deepEqual([slow.transient, slow.code], [true, 'timeout'])

  server.replies.push({ destroy: true })
  const reset = await failure(chat(openai(), messages, { env }, nodePlatform))
  assert.deepEqual([reset.transient, reset.code], [true, 'network'])

  server.replies.push({ delayMs: 1500, ...openAiAnswer('late') })
  const controller = new AbortController()
  setTimeout(() => controller.abort(), 50)
  const cancelled = await failure(chat(openai(), messages, { env, signal: controller.signal }, nodePlatform))
  assert.deepEqual([cancelled.transient, cancelled.code], [false, 'aborted'])

  const unset = await failure(chat(openai(), messages, { env: {} }, nodePlatform))
  assert.deepEqual([unset.transient, unset.code], [false, 'config'])
  assert.match(unset.message, /TEST_PROVIDER_KEY/)
})

test('connection refused is transient, and the probe reports it', async () => {
  const gone = await startScriptedServer()
  const url = gone.baseUrl
  await gone.close()
  const error = await failure(chat({ kind: 'openai-compatible', base_url: url, model: 'm' }, messages, {}, nodePlatform))
  assert.equal(error.transient, true)
  assert.match(error.message, /ECONNREFUSED/)
  const probed = await probe({ kind: 'ollama', base_url: url, model: 'm' }, nodePlatform)
  assert.equal(probed.ok, false)
  assert.match(probed.message, /ECONNREFUSED/)
})

test('ollama: POST /api/chat with stream:false and options; usage from eval counts; reported cost honoured', async () => {
  server.replies.push(ollamaAnswer('ollama says hi'), ollamaAnswer('x', { cost: 0.5 }))
  const agent: ProviderAgent = { kind: 'ollama', base_url: server.baseUrl, model: 'llama3', temperature: 0, max_tokens: 99 }
  const result = await chat(agent, messages, {}, nodePlatform)
  const request = server.requests.at(-1)!
  assert.equal(request.url, '/api/chat')
  assert.deepEqual(request.body, { model: 'llama3', messages, stream: false, options: { temperature: 0, num_predict: 99 } })
  assert.deepEqual(result, { text: 'ollama says hi', usage: { inputTokens: 12, outputTokens: 7, costUsd: null, model: 'llama3' } })
  assert.equal((await chat(agent, messages, {}, nodePlatform)).usage.costUsd, 0.5)
})

test('probe: lists models (openai /v1/models, ollama /api/tags); a missing ollama model or a refused key fails', async () => {
  server.replies.push({ body: { data: [{ id: 'gpt-test' }, { id: 'other' }] } })
  assert.deepEqual(await probe(openai(), nodePlatform, env), { ok: true, message: `${server.baseUrl}/v1/models answers (2 models)` })
  assert.equal(server.requests.at(-1)!.method, 'GET')

  const ollama: ProviderAgent = { kind: 'ollama', base_url: server.baseUrl, model: 'llama3' }
  server.replies.push({ body: { models: [{ name: 'llama3:latest' }] } }, { body: { models: [{ name: 'qwen2' }] } })
  assert.equal((await probe(ollama, nodePlatform)).ok, true)
  assert.equal(server.requests.at(-1)!.url, '/api/tags')
  const missing = await probe(ollama, nodePlatform)
  assert.equal(missing.ok, false)
  assert.match(missing.message, /"llama3" is not pulled \(have: qwen2\)/)

  server.replies.push({ status: 401, body: { error: 'bad key' } })
  const denied = await probe(openai(), nodePlatform, env)
  assert.deepEqual(denied.ok, false)
  assert.match(denied.message, /HTTP 401: bad key/)
})
