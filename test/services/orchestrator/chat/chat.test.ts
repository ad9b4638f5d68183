import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, test } from 'node:test'
import { eventually, startOrchestrator } from '../../../helpers/orchestrator.js'

interface ProviderRequest {
  body: { messages: { role: string; content: string }[]; stream?: boolean; model: string }
  aborted: boolean
}

/** A local OpenAI-compatible server: streams `pieces` as SSE deltas, or fails, or stalls after the first piece. */
async function startProvider(mode: { pieces?: string[]; fail?: boolean; stall?: boolean } = {}) {
  const requests: ProviderRequest[] = []
  const pieces = mode.pieces ?? ['The sprint ', 'is idle', '.']
  const server = http.createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk) => (raw += chunk))
    req.on('end', () => {
      const record: ProviderRequest = { body: JSON.parse(raw) as ProviderRequest['body'], aborted: false }
      requests.push(record)
      res.on('close', () => {
        if (!res.writableFinished) record.aborted = true
      })
      if (mode.fail) {
        res.writeHead(500, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { message: 'model overloaded' } }))
        return
      }
      if (!record.body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            model: record.body.model,
            choices: [{ message: { role: 'assistant', content: pieces.join('') } }],
            usage: { prompt_tokens: 12, completion_tokens: 5 }
          })
        )
        return
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      const delta = (text: string) => `data: ${JSON.stringify({ choices: [{ delta: { content: text } }] })}\n\n`
      if (mode.stall) {
        res.write(delta(pieces[0] as string))
        return // never ends: only the client going away ends it
      }
      for (const piece of pieces) res.write(delta(piece))
      res.end('data: [DONE]\n\n')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  after(() => new Promise<void>((resolve) => server.close(() => resolve())))
  server.unref()
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, requests }
}

function providerConfig(url: string) {
  return { agents: { local: { kind: 'openai-compatible', base_url: url, model: 'tiny' } }, chat: { agent: 'local' } }
}

function framesOf(body: string): { type: string; text?: string; reply?: string; message?: string }[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as { type: string })
}

async function streamChat(base: string, query: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/api/chat/stream?${query}`, { headers })
  return { status: response.status, body: await response.text(), type: response.headers.get('content-type') }
}

test('built-ins are answered from live state without a provider; natural language says honestly what to configure', async () => {
  const orch = await startOrchestrator({ git: false })
  const status = await orch.call('POST', '/api/chat', { message: 'status' })
  assert.equal(status.status, 200)
  assert.equal(status.json.reply, 'Sprint status: idle — no sprint yet')
  assert.match((await orch.call('POST', '/api/chat', { message: '/help' })).json.reply, /\/approvals/)
  assert.equal((await orch.call('POST', '/api/chat', { message: '/approvals' })).json.reply, 'No approval request is pending.')
  assert.match((await orch.call('POST', '/api/chat', { message: '/nope' })).json.reply, /Unknown command \/nope/)
  assert.equal((await orch.call('POST', '/api/chat', { message: '  ' })).status, 400)

  const free = await orch.call('POST', '/api/chat', { message: 'how is it going?' })
  assert.equal(free.status, 200)
  assert.match(free.json.reply, /^Chat provider unavailable: no provider agent is configured: add an "openai-compatible" or "ollama" agent/)
  assert.match(free.json.reply, /chat\.agent/)

  const base = await orch.listen()
  const streamed = await streamChat(base, 'message=why', { authorization: `Bearer ${orch.token}` })
  assert.equal(streamed.status, 200)
  const frames = framesOf(streamed.body)
  assert.equal(frames.length, 1)
  assert.equal(frames[0]?.type, 'error')
  assert.match(frames[0]?.message ?? '', /Chat provider unavailable/)
})

test('natural language goes once to the provider, grounded with live status, tasks and approvals; history is kept per caller', async () => {
  const provider = await startProvider({ pieces: ['All ', 'quiet.'] })
  const orch = await startOrchestrator({ git: false, config: providerConfig(provider.url) })
  const first = await orch.call('POST', '/api/chat', { message: 'anything blocked?' })
  assert.deepEqual(first.json, { reply: 'All quiet.' })
  assert.equal(provider.requests.length, 1)
  const messages = provider.requests[0]?.body.messages ?? []
  assert.equal(messages[0]?.role, 'system')
  assert.match(messages[0]?.content ?? '', /Status: idle — no sprint yet/)
  assert.match(messages[0]?.content ?? '', /Pending approvals:\n\(none\)/)
  assert.deepEqual(messages.at(-1), { role: 'user', content: 'anything blocked?' })

  await orch.call('POST', '/api/chat', { message: 'and now?' })
  const second = provider.requests[1]?.body.messages ?? []
  assert.deepEqual(
    second.slice(1).map((m) => m.content),
    ['anything blocked?', 'All quiet.', 'and now?']
  )
  await orch.call('POST', '/api/chat', { message: 'status' })
  assert.equal(provider.requests.length, 2, 'built-ins never reach the provider')
})

test('the stream: chunk frames then exactly one done; a provider error is exactly one error frame', async () => {
  const provider = await startProvider({ pieces: ['Hel', 'lo ', 'there'] })
  const orch = await startOrchestrator({ git: false, config: providerConfig(provider.url) })
  const base = await orch.listen()
  const ok = await streamChat(base, `message=${encodeURIComponent('say hello')}`, { authorization: `Bearer ${orch.token}` })
  assert.equal(ok.status, 200)
  assert.match(ok.type ?? '', /text\/event-stream/)
  assert.deepEqual(framesOf(ok.body), [
    { type: 'chunk', text: 'Hel' },
    { type: 'chunk', text: 'lo ' },
    { type: 'chunk', text: 'there' },
    { type: 'done', reply: 'Hello there' }
  ])
  assert.equal(provider.requests[0]?.body.stream, true)

  const failing = await startProvider({ fail: true })
  const broken = await startOrchestrator({ git: false, config: providerConfig(failing.url) })
  const brokenBase = await broken.listen()
  const failed = framesOf((await streamChat(brokenBase, 'message=hi', { authorization: `Bearer ${broken.token}` })).body)
  assert.equal(failed.length, 1)
  assert.equal(failed[0]?.type, 'error')
  assert.match(failed[0]?.message ?? '', /Chat provider unavailable: local: .*HTTP 500/)
  const blank = framesOf((await streamChat(brokenBase, 'message=%20', { authorization: `Bearer ${broken.token}` })).body)
  assert.deepEqual(blank, [{ type: 'error', message: 'message is required' }])
  assert.equal(failing.requests.length, 1, 'a blank message never reaches the provider')
  const post = await broken.call('POST', '/api/chat', { message: 'hi' })
  assert.equal(post.status, 200)
  assert.match(post.json.reply, /Chat provider unavailable: local: .*model overloaded/)
})

test('?token= lane: right 200, wrong 403, missing 401, and the token is never echoed', async () => {
  const provider = await startProvider()
  const orch = await startOrchestrator({ git: false, config: providerConfig(provider.url) })
  const base = await orch.listen()
  const right = await streamChat(base, `message=status&token=${encodeURIComponent(orch.token)}`)
  assert.equal(right.status, 200)
  assert.equal(framesOf(right.body).at(-1)?.type, 'done')
  const wrong = await streamChat(base, 'message=hello&token=not-the-token')
  assert.equal(wrong.status, 403)
  assert.match(wrong.body, /forbidden/)
  assert.equal((await streamChat(base, 'message=hello')).status, 401)
  assert.equal(provider.requests.length, 0, 'refused callers never reach the provider')
  for (const body of [right.body, wrong.body]) assert.ok(!body.includes(orch.token) && !body.includes('not-the-token'))
})

test('a client that disconnects cancels the provider call', async () => {
  const provider = await startProvider({ stall: true, pieces: ['thinking'] })
  const orch = await startOrchestrator({ git: false, config: providerConfig(provider.url) })
  const base = await orch.listen()
  const controller = new AbortController()
  const response = await fetch(`${base}/api/chat/stream?message=long`, {
    headers: { authorization: `Bearer ${orch.token}` },
    signal: controller.signal
  })
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  let seen = ''
  while (!seen.includes('"chunk"')) seen += new TextDecoder().decode((await reader.read()).value)
  assert.equal(provider.requests[0]?.aborted, false)
  controller.abort()
  await eventually(async () => provider.requests[0]?.aborted === true, 5000, 'the provider request to be cancelled')
})
