/**
 * Usage limits (`GET /api/limits`): the tokens and dollars recorded on attempts inside each
 * configured rolling window (`limits.windows[{name, hours, tokens?, usd?}]`) against its limits.
 * pct is the larger of the token and dollar shares; warn at 70 %, block at 90 %.
 */
import type { ProjectConfig } from '../../project/config-schema.js'
import type { InsightRepositories } from './insight-repositories.js'
import { microToUsd, roundTo } from './stats.js'

export const WARN_PCT = 70
export const BLOCK_PCT = 90
export const NO_WINDOWS_REASON = 'no usage windows configured: add limits.windows to .quartet/config.json'

export interface LimitWindowView {
  name: string
  hours: number
  pct: number
  used: { tokens: number; usd: number }
  limit: { tokens: number | null; usd: number | null }
  /** When the oldest usage counted leaves the rolling window; null while nothing is counted. */
  resetAt: { text: string; timezone: null } | null
  verdict: 'ok' | 'warn' | 'block'
}

export interface LimitsView {
  unavailable: boolean
  reason: string | null
  windows: LimitWindowView[]
}

export function verdictFor(pct: number): LimitWindowView['verdict'] {
  return pct >= BLOCK_PCT ? 'block' : pct >= WARN_PCT ? 'warn' : 'ok'
}

export async function usageLimits(
  repositories: InsightRepositories,
  projectId: number,
  config: ProjectConfig,
  now: Date
): Promise<LimitsView> {
  const windows = config.limits.windows
  if (windows.length === 0) return { unavailable: true, reason: NO_WINDOWS_REASON, windows: [] }
  const views = await Promise.all(
    windows.map(async (window): Promise<LimitWindowView> => {
      const windowMs = window.hours * 3_600_000
      const used = await repositories.insight.usageSince(projectId, new Date(now.getTime() - windowMs).toISOString())
      const usd = microToUsd(used.costMicroUsd)
      const shares = [
        window.tokens === undefined ? 0 : (used.tokens / window.tokens) * 100,
        window.usd === undefined ? 0 : (usd / window.usd) * 100
      ]
      const pct = roundTo(Math.max(...shares), 1)
      return {
        name: window.name,
        hours: window.hours,
        pct,
        used: { tokens: used.tokens, usd },
        limit: { tokens: window.tokens ?? null, usd: window.usd ?? null },
        resetAt:
          used.oldestStartedAt === null
            ? null
            : { text: new Date(Date.parse(used.oldestStartedAt) + windowMs).toISOString(), timezone: null },
        verdict: verdictFor(pct)
      }
    })
  )
  return { unavailable: false, reason: null, windows: views }
}
