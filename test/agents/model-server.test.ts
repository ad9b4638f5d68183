// The scripted model servers the agent contract tests point the real CLIs at: each API's wire format (streaming
// and not), tool calls, usage fields, errors, recording, and what happens to unscripted or unknown requests.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { startModelServer, type Api, type Scenario } from '../helpers/model-server/index.js'

async function withServer(
  api: Api,
  scenario: Scenario,
  body: (url: string, server: Awaited<ReturnType<typeof startModelServer>>) => Promise<void>
) {
  const server = await startModelServer(api, scenario)
  try {
    await body(server.url, server)
  } finally {
    await server.close()
  }
}

function post(url: string, body: unknown) {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

async function json(response: Response | Promise<Response>): Promise<any> {
  return (await response).json()
}

/** The `data:` payloads of an SSE body, parsed (a non-JSON payload such as [DONE] is kept as a string). */
async function sse(response: Response): Promise<any[]> {
  assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/)
  const text = await response.text()
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => {
      const data = line.slice(6)
      try {
        return JSON.parse(data)
      } catch {
        return data
      }
    })
}

const WRITE = { name: 'write', input: { path: 'a.txt', content: 'A' } }

describe('scripted model servers', () => {
  test('Anthropic Messages: streamed tool_use then text, usage in message_start/message_delta, count_tokens, records', async () => {
    await withServer(
      'anthropic',
      { turns: [{ tools: [WRITE] }, { text: 'done', usage: { input: 7, output: 3, cacheRead: 2 } }] },
      async (url, server) => {
        const request = {
          model: 'm',
          stream: true,
          system: 'SYS',
          tools: [{ name: 'write' }],
          messages: [{ role: 'user', content: 'PROMPT' }]
        }
        const first = await sse(await post(`${url}/v1/messages?beta=true`, request))
        assert.deepEqual(
          first.map((e) => e.type),
          ['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']
        )
        assert.deepEqual(first[1].content_block, { type: 'tool_use', id: 'toolu_1_0', name: 'write', input: {} })
        assert.deepEqual(JSON.parse(first[2].delta.partial_json), WRITE.input)
        assert.equal(first[4].delta.stop_reason, 'tool_use')
        assert.equal(first[0].message.usage.input_tokens, 1000)
        assert.equal(first[4].usage.output_tokens, 20)
        const result = {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1_0', content: [{ type: 'text', text: 'WROTE' }] }]
        }
        const second = await json(post(`${url}/v1/messages`, { ...request, stream: false, messages: [...request.messages, result] }))
        assert.deepEqual(second.content, [{ type: 'text', text: 'done' }])
        assert.equal(second.stop_reason, 'end_turn')
        assert.deepEqual(second.usage, { input_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 2, output_tokens: 3 })
        const count = await json(post(`${url}/v1/messages/count_tokens`, request))
        assert.equal(typeof count.input_tokens, 'number')
        assert.deepEqual(
          server.requests.map((r) => r.answer.kind),
          ['turn', 'turn', 'count']
        )
        assert.deepEqual(server.turnRequests()[0]?.request?.texts, ['SYS', 'PROMPT'])
        assert.deepEqual(server.turnRequests()[1]?.request?.toolResults, ['WROTE'])
        assert.deepEqual(server.turnUsageReported(), { input: 1007, output: 23, cacheRead: 2, cacheWrite: 0, reasoning: 0 })
      }
    )
  })

  test('OpenAI Responses: streamed function_call and custom_tool_call items, usage in response.completed', async () => {
    await withServer(
      'openai',
      { turns: [{ tools: [WRITE, { name: 'apply_patch', input: '*** Begin Patch' }] }, { text: 'done' }] },
      async (url, server) => {
        const request = {
          model: 'm',
          stream: true,
          instructions: 'SYS',
          tools: [{ type: 'function', name: 'write' }],
          input: [{ role: 'user', content: 'PROMPT' }]
        }
        const events = await sse(await post(`${url}/v1/responses`, request))
        const done = events.filter((e) => e.type === 'response.output_item.done').map((e) => e.item)
        assert.deepEqual(done[0], {
          type: 'function_call',
          id: 'fc_1_0',
          call_id: 'call_1_0',
          name: 'write',
          arguments: JSON.stringify(WRITE.input),
          status: 'completed'
        })
        assert.equal(done[1].type, 'custom_tool_call')
        assert.equal(done[1].input, '*** Begin Patch')
        const completed = events.at(-1)
        assert.equal(completed.type, 'response.completed')
        assert.deepEqual(completed.response.usage, {
          input_tokens: 1000,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 20,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 1020
        })
        const next = [...request.input, { type: 'function_call_output', call_id: 'call_1_0', output: 'WROTE' }]
        const text = await sse(await post(`${url}/v1/responses`, { ...request, input: next }))
        assert.deepEqual(
          text.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta),
          ['done']
        )
        assert.deepEqual(server.turnRequests()[1]?.request?.toolResults, ['WROTE'])
      }
    )
  })

  test('OpenAI Chat Completions: streamed tool_calls, a usage chunk and [DONE]', async () => {
    await withServer('openai', { turns: [{ tools: [WRITE] }] }, async (url, server) => {
      const chunks = await sse(
        await post(`${url}/v1/chat/completions`, {
          model: 'm',
          stream: true,
          tools: [{ type: 'function', function: { name: 'write' } }],
          messages: []
        })
      )
      assert.equal(chunks.at(-1), '[DONE]')
      const call = chunks.find((c) => c.choices?.[0]?.delta?.tool_calls)?.choices[0].delta.tool_calls[0]
      assert.deepEqual(call, {
        index: 0,
        id: 'call_1_0',
        type: 'function',
        function: { name: 'write', arguments: JSON.stringify(WRITE.input) }
      })
      assert.equal(chunks.find((c) => c.choices?.[0]?.finish_reason)?.choices[0].finish_reason, 'tool_calls')
      assert.deepEqual(chunks.at(-2).usage.prompt_tokens, 1000)
      assert.deepEqual(server.turnRequests()[0]?.request?.tools, ['write'])
    })
  })

  test('Gemini: streamGenerateContent (alt=sse) with functionCall parts and usageMetadata; generateContent answers JSON', async () => {
    await withServer('gemini', { turns: [{ tools: [WRITE] }, { text: 'done' }] }, async (url) => {
      const request = { contents: [{ role: 'user', parts: [{ text: 'PROMPT' }] }], tools: [{ functionDeclarations: [{ name: 'write' }] }] }
      const [chunk] = await sse(await post(`${url}/v1beta/models/gemini-x:streamGenerateContent?alt=sse`, request))
      assert.deepEqual(chunk.candidates[0].content.parts, [{ functionCall: { id: 'fc_1_0', name: 'write', args: WRITE.input } }])
      assert.deepEqual(chunk.usageMetadata, {
        promptTokenCount: 1000,
        candidatesTokenCount: 20,
        thoughtsTokenCount: 0,
        cachedContentTokenCount: 0,
        totalTokenCount: 1020
      })
      const answer = await json(post(`${url}/v1beta/models/gemini-x:generateContent`, request))
      assert.deepEqual(answer.candidates[0].content.parts, [{ text: 'done' }])
    })
  })

  test('side requests (no tools) are answered without consuming a turn; JSON requests get {}', async () => {
    await withServer('gemini', { turns: [{ text: 'turn' }] }, async (url, server) => {
      const side = await json(
        post(`${url}/v1beta/models/flash:generateContent`, { contents: [], generationConfig: { responseMimeType: 'application/json' } })
      )
      assert.deepEqual(side.candidates[0].content.parts, [{ text: '{}' }])
      assert.equal(server.turnsUsed(), 0)
      assert.equal(server.requests[0]?.answer.kind, 'side')
    })
  })

  test('errors are API-shaped; a sticky error answers every later request; unscripted and unknown requests are recorded', async () => {
    await withServer('anthropic', { turns: [{ error: { status: 529, message: 'busy' }, sticky: true }] }, async (url, server) => {
      const tools = [{ name: 'write' }]
      for (let i = 0; i < 2; i++) {
        const response = await post(`${url}/v1/messages`, { model: 'm', tools, messages: [] })
        assert.equal(response.status, 529)
        assert.deepEqual(await json(response), { type: 'error', error: { type: 'overloaded_error', message: 'busy' } })
      }
      const unknown = await fetch(`${url}/v1/models`)
      assert.equal(unknown.status, 404)
      assert.equal((await json(unknown)).type, 'error')
      assert.deepEqual(
        server.unanswered().map((r) => `${r.method} ${r.url}`),
        ['GET /v1/models']
      )
    })
    await withServer('openai', { turns: [{ text: 'only one' }] }, async (url, server) => {
      const tools = [{ type: 'function', name: 'write' }]
      assert.equal((await post(`${url}/v1/responses`, { model: 'm', tools, input: [] })).status, 200)
      const over = await post(`${url}/v1/responses`, { model: 'm', tools, input: [] })
      assert.equal(over.status, 400)
      assert.match((await json(over)).error.message, /the scenario has no turn 1/)
      assert.equal(server.unanswered()[0]?.answer.kind, 'unscripted')
    })
    await withServer('gemini', { turns: [{ error: { status: 429, message: 'slow down' } }] }, async (url) => {
      const response = await post(`${url}/v1beta/models/g:generateContent`, {
        contents: [],
        tools: [{ functionDeclarations: [{ name: 'x' }] }]
      })
      assert.equal(response.status, 429)
      assert.deepEqual(await json(response), { error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' } })
    })
  })

  test('a turn with expect answers only the request it expects', async () => {
    const scenario: Scenario = { turns: [{ text: 'ok', expect: (r) => r.texts.includes('RETRY REASON') }] }
    await withServer('openai', scenario, async (url, server) => {
      const tools = [{ type: 'function', function: { name: 'x' } }]
      assert.equal((await post(`${url}/v1/chat/completions`, { tools, messages: [{ role: 'user', content: 'nope' }] })).status, 400)
      assert.equal((await post(`${url}/v1/chat/completions`, { tools, messages: [{ role: 'user', content: 'RETRY REASON' }] })).status, 200)
      assert.deepEqual(
        server.requests.map((r) => r.answer.kind),
        ['unscripted', 'turn']
      )
    })
  })
})
