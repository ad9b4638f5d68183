// The output readers of the agent drivers, fed the event shapes the contract probes recorded from the real CLIs
// (docs/orchestrator-agents.md): usage, cost (null when the CLI reports none), session, the agent's error, denials.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { OUTPUT_FORMATS } from '../../src/services/orchestrator/engine/agents/registry.js'

function read(format: keyof typeof OUTPUT_FORMATS, lines: string[]) {
  const reader = OUTPUT_FORMATS[format]()
  for (const line of lines) reader.onLine(line)
  return { report: reader.report(), activity: reader.activity() }
}

test('codex --json: usage summed over turns, no cost (null), thread id, rejected patch and turn.failed named', () => {
  const ok = read('codex-json', [
    '{"type":"thread.started","thread_id":"th-1"}',
    '{"type":"item.completed","item":{"type":"agent_message","text":"Writing hello.txt\\nmore"}}',
    '{"type":"turn.completed","usage":{"input_tokens":1100,"cached_input_tokens":0,"output_tokens":25}}',
    '{"type":"turn.completed","usage":{"input_tokens":1200,"output_tokens":30}}',
    '2026-11-26T21:00:00Z ERROR codex_core: patch rejected: writing is blocked by read-only sandbox; rejected by user approval settings'
  ])
  assert.deepEqual(ok.report, {
    usage: { inputTokens: 2300, outputTokens: 55, costUsd: null },
    denials: ['apply_patch (writing is blocked by read-only sandbox; rejected by user approval settings)'],
    sessionId: 'th-1'
  })
  assert.equal(ok.activity, 'Writing hello.txt')
  const failed = read('codex-json', [
    '{"type":"error","message":"exceeded retry limit, last status: 429 Too Many Requests"}',
    '{"type":"turn.failed","error":{"message":"exceeded retry limit, last status: 429 Too Many Requests"}}'
  ])
  assert.equal(failed.report.error, 'exceeded retry limit, last status: 429 Too Many Requests')
  assert.equal(failed.report.usage, undefined)
})

test('gemini stream-json: stats as usage, cost null, unregistered tool as a denial, error result named', () => {
  const { report } = read('gemini-stream-json', [
    '{"type":"init","session_id":"g-1","model":"gemini-2.5-pro"}',
    '{"type":"tool_use","tool_name":"write_file","tool_id":"c1","parameters":{"file_path":"a.txt"}}',
    JSON.stringify({
      type: 'tool_result',
      tool_id: 'c1',
      status: 'error',
      error: { type: 'tool_not_registered', message: 'Tool "write_file" not found' }
    }),
    JSON.stringify({
      type: 'result',
      status: 'error',
      error: { type: 'API', message: '[API Error: quota exceeded]' },
      stats: { input_tokens: 1100, output_tokens: 25 }
    })
  ])
  assert.deepEqual(report, {
    usage: { inputTokens: 1100, outputTokens: 25, costUsd: null, model: 'gemini-2.5-pro' },
    error: '[API Error: quota exceeded]',
    denials: ['write_file a.txt: Tool "write_file" not found'],
    sessionId: 'g-1'
  })
})

test('opencode json: tokens summed per step; cost 0 is unknown (null), a priced step is kept; API error with status', () => {
  const step = (cost: number) =>
    JSON.stringify({
      type: 'step_finish',
      sessionID: 'ses_1',
      part: { tokens: { input: 100, output: 10, reasoning: 2, cache: { read: 5, write: 0 } }, cost }
    })
  assert.deepEqual(read('opencode-json', [step(0), step(0)]).report, {
    usage: { inputTokens: 210, outputTokens: 24, costUsd: null },
    denials: [],
    sessionId: 'ses_1'
  })
  assert.equal(read('opencode-json', [step(0.25), step(0.5)]).report.usage?.costUsd, 0.75)
  const failed = read('opencode-json', [
    JSON.stringify({ type: 'error', sessionID: 'ses_2', error: { name: 'APIError', data: { message: 'Overloaded', statusCode: 529 } } }),
    '! permission requested: external_directory (/etc/*); auto-rejecting'
  ]).report
  assert.equal(failed.error, 'Overloaded (HTTP 529)')
  assert.deepEqual(failed.denials, ['external_directory (/etc/*) (auto-rejected)'])
})

test('qwen reads as claude stream-json: error.message of an error_during_execution result', () => {
  const { report } = read('claude-stream-json', [
    JSON.stringify({
      type: 'result',
      subtype: 'error_during_execution',
      is_error: true,
      error: { message: '[API Error: 400 bad model]' },
      usage: { input_tokens: 0, output_tokens: 0 }
    })
  ])
  assert.equal(report.error, '[API Error: 400 bad model]')
  assert.equal(report.usage?.costUsd, null)
})

test('text: no usage at all (cost unknown, never 0), the latest line is the activity', () => {
  assert.deepEqual(read('text', ['working', '', 'done']), { report: { denials: [] }, activity: 'done' })
})
