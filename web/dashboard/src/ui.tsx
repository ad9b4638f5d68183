import { useEffect, useState, type ReactNode } from 'react'
import { ApiError } from './api/client'

export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return now
}

export function elapsed(from: string | null | undefined, to: string | null | undefined, now: number): string {
  if (!from) return '–'
  const ms = (to ? Date.parse(to) : now) - Date.parse(from)
  if (!Number.isFinite(ms) || ms < 0) return '–'
  const s = Math.floor(ms / 1000)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`
}

export function StatusPill({ status }: { status: string }) {
  return <span className={`pill pill-${status.toLowerCase().replace(/[^a-z]/g, '-')}`}>{status}</span>
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>
}

export function Loading() {
  return (
    <p className="muted" aria-busy="true">
      Loading…
    </p>
  )
}

export function ErrorBox({ error }: { error: unknown }) {
  const message =
    error instanceof ApiError ? `${error.message} (HTTP ${error.status})` : error instanceof Error ? error.message : String(error)
  return (
    <p className="error" role="alert">
      Could not load: {message}
    </p>
  )
}

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card">
      <header className="card-head">
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  )
}

/** A cost in dollars; null is "unknown" (the agent reported none), never $0. */
export function costText(usd: number | null | undefined): string {
  return usd === null || usd === undefined ? 'unknown' : `$${usd.toFixed(4)}`
}

// One formatter for every count: Number#toLocaleString builds a new one per call (500 rows, 500 formatters).
const COUNT = new Intl.NumberFormat()

export function countText(value: number): string {
  return COUNT.format(value)
}

export interface Usage {
  inputTokens: number
  outputTokens: number
  costUsd: number | null
}

/**
 * Tokens over a task's (or an attempt's) runs. The API counts 0 for an agent that reported no usage at
 * all, so no tokens and no cost is "unknown", never 0.
 */
export function tokensText(usage: Usage): string {
  const total = usage.inputTokens + usage.outputTokens
  return total === 0 && usage.costUsd === null ? 'unknown' : countText(total)
}

export interface XverifyVerdict {
  verdict: 'CONFIRMED' | 'REFUTED' | 'UNCLEAR' | 'HOLD' | 'SKIPPED'
  closed: boolean
  reason: string
  receiptRef: string | null
  verifier: { agent: string; provider: string; model: string } | null
}

/** The cross-verify verdict of a task: only CONFIRMED with its receipt is "closed"; the rest is flagged. */
export function VerdictPill({ verdict }: { verdict: XverifyVerdict | null }) {
  if (!verdict) return <span className="muted">–</span>
  return (
    <span className={`pill verdict-${verdict.verdict.toLowerCase()}`} data-verdict={verdict.verdict} title={verdict.reason}>
      {verdict.verdict}
      {verdict.closed ? ' ✓' : ''}
    </span>
  )
}
