// The event table of docs/orchestrator.md, between its markers, generated from engine/events.ts.
import fs from 'node:fs'
import path from 'node:path'
import { eventTableMarkdown } from '../src/services/orchestrator/engine/events.js'

export const EVENTS_DOC = path.join(import.meta.dirname, '..', 'docs', 'orchestrator.md')
const START = '<!-- events:start -->'
const END = '<!-- events:end -->'

/** The doc's text with the table between the markers replaced by the generated one. */
export function withEventTable(doc: string): string {
  const start = doc.indexOf(START)
  const end = doc.indexOf(END)
  if (start === -1 || end < start) throw new Error(`${EVENTS_DOC} has no ${START} … ${END} section`)
  return `${doc.slice(0, start + START.length)}\n${eventTableMarkdown()}${doc.slice(end)}`
}

export function syncEventsDoc(): boolean {
  const before = fs.readFileSync(EVENTS_DOC, 'utf8')
  const after = withEventTable(before)
  if (after !== before) fs.writeFileSync(EVENTS_DOC, after)
  return after !== before
}
