/**
 * Prompt-injection guard on terminal input: input that matches one of these patterns is not
 * written to the PTY; the client gets a `guard_block` frame naming the pattern ids and offsets.
 * The patterns target text that tries to re-steer an agent CLI running in the session, not shell
 * syntax: a human typing commands never meets them.
 */
export interface GuardPattern {
  id: string
  pattern: RegExp
}

export const GUARD_PATTERNS: readonly GuardPattern[] = [
  { id: 'ignore-previous-instructions', pattern: /ignore\s+(all\s+)?(the\s+)?(previous|prior|above)\s+(instructions|prompts?|rules)/i },
  { id: 'disregard-system-prompt', pattern: /disregard\s+(the\s+|your\s+)?(system\s+prompt|instructions|guidelines)/i },
  { id: 'reveal-system-prompt', pattern: /(reveal|print|show|repeat)\s+(me\s+)?(your|the)\s+system\s+prompt/i },
  { id: 'role-override', pattern: /you\s+are\s+now\s+(in\s+)?(developer|dan|jailbreak|god)\s*mode/i },
  { id: 'fake-system-tag', pattern: /<\/?\s*(system|im_start|im_end)\s*>/i },
  {
    id: 'exfiltrate-secrets',
    pattern: /(send|post|upload|exfiltrate)\s+(all\s+)?(the\s+)?(secrets|api[\s_-]?keys?|credentials|tokens)\s+to/i
  }
]

export interface GuardHit {
  patternId: string
  offset: number
}

export function scanInput(data: string, patterns: readonly GuardPattern[] = GUARD_PATTERNS): GuardHit[] {
  const hits: GuardHit[] = []
  for (const { id, pattern } of patterns) {
    const match = pattern.exec(data)
    if (match) hits.push({ patternId: id, offset: match.index })
  }
  return hits
}
