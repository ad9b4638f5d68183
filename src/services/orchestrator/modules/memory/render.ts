import type { MemoryReadView } from './contract.js'

/** The text of the compatibility projection (`GET /api/memory`): the entries of the view, and where the deferred ones can be read. */
export function projectionText(view: MemoryReadView): string {
  if (view.state === 'HOLD') return `Memory is on hold (${view.reasonCode}).`
  if (view.state === 'ABSENT') return 'No memory entries.'
  const sections = view.entries.map(({ entry }) => `## ${entry.title}\n\n${entry.content.trimEnd()}`)
  const deferred = view.deferred.map(
    (d) => `- #${d.candidate.id} ${d.candidate.titlePreview} (${d.reasonCode}): GET /api/memory/detail?v=1&ref=${d.detailRef}`
  )
  const more = view.nextCursor ? '\n\nMore entries: GET /api/memory/search?v=1&type=memory&cursor=<nextCursor of the view>' : ''
  const deferredSection = deferred.length > 0 ? `\n\n## Deferred (over this view's budget)\n\n${deferred.join('\n')}` : ''
  return `# Memory\n\n${sections.join('\n\n')}${deferredSection}${more}\n`
}
