/**
 * The effect-class policy of process submissions (docs/orchestrator.md#process-submission-and-missions): classify what a request would do
 * from its description, kind and scope, then run it now or park it for an approval.
 */
export type EffectClass = 'critical-irreversible' | 'compensable' | 'idempotent' | 'reversible' | 'pure'
export type ProcessPolicy = 'auto' | 'approval-required' | 'risk-tagged'
export const PROCESS_POLICIES: readonly ProcessPolicy[] = ['auto', 'approval-required', 'risk-tagged']

const CRITICAL = [
  /\bpublish/i,
  /\bdeploy\w*\s+(?:[\w-]+\s+){0,3}to\s+prod/i,
  /\bforce[- ]?push/i,
  /\bpayment\s+capture|\bcapture\s+(?:the\s+)?payments?\b/i,
  /\bsend\w*\s+(?:an?\s+|the\s+)?(?:e-?mails?|notifications?)\b/i
]
const COMPENSABLE = [
  /\boutbound\s+api/i,
  /\bqueue\s+dispatch|\bdispatch\w*\s+(?:\w+\s+)?(?:to\s+)?(?:a\s+|the\s+)?queue\b/i,
  /\bwebhooks?\b/i
]
const IDEMPOTENT = [/\b(?:db|database|schema)\s+migrations?\b/i, /\bcreate\s+table\b/i]

export interface Classified {
  effectClass: EffectClass
  because: string
}

export function classify(input: { description: string; kind: string; scopeDir?: string | undefined }): Classified {
  const hit = (patterns: RegExp[]) => patterns.map((p) => p.exec(input.description)?.[0]).find((m) => m !== undefined)
  const critical = hit(CRITICAL)
  if (critical) return { effectClass: 'critical-irreversible', because: `the description says "${critical}"` }
  const compensable = hit(COMPENSABLE)
  if (compensable) return { effectClass: 'compensable', because: `the description says "${compensable}"` }
  const idempotent = hit(IDEMPOTENT)
  if (idempotent) return { effectClass: 'idempotent', because: `the description says "${idempotent}"` }
  if (input.kind === 'sprint') return { effectClass: 'reversible', because: 'a sprint runs on task branches' }
  const scope = input.scopeDir?.replace(/^\.\//, '')
  if (scope !== undefined && scope !== '') {
    return scope === 'docs/audits' || scope.startsWith('docs/audits/')
      ? { effectClass: 'pure', because: `scope ${scope} is read-only audit output` }
      : { effectClass: 'reversible', because: `scoped to ${scope}` }
  }
  return { effectClass: 'critical-irreversible', because: 'nothing bounds its effect (no scopeDir)' }
}

/** run: start now; park: create an approval request and wait for its decision. */
export function decide(policy: ProcessPolicy, effectClass: EffectClass): 'run' | 'park' {
  if (policy === 'auto') return 'run'
  if (policy === 'approval-required') return 'park'
  return effectClass === 'pure' || effectClass === 'reversible' ? 'run' : 'park'
}

export function riskOf(effectClass: EffectClass): 'none' | 'low' | 'medium' | 'high' | 'critical' {
  return ({ 'critical-irreversible': 'critical', compensable: 'high', idempotent: 'medium', reversible: 'low', pure: 'none' } as const)[
    effectClass
  ]
}
