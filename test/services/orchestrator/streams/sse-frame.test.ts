import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatSseFrame } from '../../../../src/services/orchestrator/streams/sse.js'

test('frames: id, event, one data line per line of a string (any line ending), JSON otherwise', () => {
  assert.equal(formatSseFrame({ id: 7, event: 'task_done', data: { a: 'x\ny' } }), 'id: 7\nevent: task_done\ndata: {"a":"x\\ny"}\n\n')
  assert.equal(formatSseFrame({ data: 'one\ntwo\r\nthree\rfour' }), 'data: one\ndata: two\ndata: three\ndata: four\n\n')
  assert.equal(formatSseFrame({ data: '' }), 'data: \n\n')
  // Field values cannot smuggle extra fields or frames.
  assert.equal(formatSseFrame({ id: '1\n\ndata: x', event: 'a\rb', data: 'z' }), 'id: 1data: x\nevent: ab\ndata: z\n\n')
})
