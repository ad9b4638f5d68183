/** Who acts on a flow, and how an intent becomes the directives the planner reads. */
import type { Principal } from '../../principal.js'
import type { FlowActor } from '../../state/run-flows.repository.js'

export function actorOf(caller: Principal): FlowActor {
  return {
    id: caller.id,
    role: caller.role,
    tenantId: caller.tenantId,
    identityClass: caller.channel === 'api' ? 'api-token' : caller.channel === 'cli' ? 'local-user' : 'engine',
    assurance: caller.channel === 'api' ? 'token-verified' : 'local',
    provenance: caller.channel
  }
}

/** The intent as directives: task blocks are planned as written, any other text is one task. */
export function directiveOf(intent: string): string {
  if (/^##\s+Task\s+\d/im.test(intent)) return intent
  const title =
    (intent.split('\n').find((l) => l.trim() !== '') ?? 'intent')
      .trim()
      .replace(/\s+#+\s*$/, '')
      .slice(0, 80) || 'intent'
  const body = intent
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n')
  return `# ${title}\n\n## Task 1: ${title}\n${body}\n`
}
