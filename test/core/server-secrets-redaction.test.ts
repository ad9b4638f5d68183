import { test } from 'node:test'
import assert from 'node:assert/strict'
import { redactServerSecrets, redactUrl } from '../../src/core/http/redact-url.js'
import { startOrchestrator } from '../helpers/orchestrator.js'
import { startFeed, TEST_JWT_SECRET } from '../helpers/feed.js'

test("the orchestrator's API token and the feed's JWT secret are redacted from logs once the services start", async () => {
  const orch = await startOrchestrator()
  assert.ok(orch.token.length >= 16, 'the harness minted a token')
  assert.equal(redactUrl(`/api/status/${orch.token}?page=1`), '/api/status/[redacted]?page=1')
  assert.equal(redactServerSecrets(`{"msg":"token ${orch.token} seen"}`), '{"msg":"token [redacted] seen"}')
  await startFeed()
  assert.equal(redactServerSecrets(`secret=${TEST_JWT_SECRET}`), 'secret=[redacted]')
  assert.equal(redactUrl(`/feed/post/${encodeURIComponent(TEST_JWT_SECRET)}`), '/feed/post/[redacted]')
})
