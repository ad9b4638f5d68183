import assert from 'node:assert/strict'
import fs from 'node:fs'
import { test } from 'node:test'
import { EVENTS_DOC, withEventTable } from '../../../scripts/events-doc.js'
import { EVENT_DOCS, EVENT_TYPES } from '../../../src/services/orchestrator/engine/events.js'

test('the event table of docs/orchestrator.md is the one generated from engine/events.ts (npm run openapi:sync)', () => {
  const doc = fs.readFileSync(EVENTS_DOC, 'utf8')
  assert.equal(doc, withEventTable(doc), 'run npm run openapi:sync and commit docs/orchestrator.md')
  for (const type of EVENT_TYPES) assert.match(doc, new RegExp(`\\| \`${type}\` \\|`), type)
})

test('every event type documents each field of its payload type', () => {
  // EVENT_DOCS is typed against the payload map, so a missing field fails to compile; this checks none is empty.
  for (const type of EVENT_TYPES) {
    const doc = EVENT_DOCS[type] as { when: string; fields: Record<string, string> }
    assert.ok(doc.when.length > 0, type)
    for (const [field, text] of Object.entries(doc.fields)) assert.ok(text.length > 0, `${type}.${field}`)
  }
})
