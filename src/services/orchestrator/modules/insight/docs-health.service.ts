/**
 * Doc freshness from git history (`GET /api/docs/health`). A doc is a tracked `*.md` file or any
 * file under `docs/`. Its code is the tracked non-doc files of its own folder and below (for a
 * doc in a folder without code, e.g. `docs/`, the whole project). Per doc:
 *   lastDocCommit   newest commit touching the doc
 *   lastCodeCommit  newest commit touching its code
 *   doc_rank        commits to its code that history puts after the doc's last commit ("commits behind")
 *   daysBehind      whole days from lastDocCommit to lastCodeCommit (0 when the doc is newer)
 * States: EXEMPT (changelogs, licences, contributing/security/conduct files, ADRs, archives,
 * .github, and docs with no code to follow), FRESH (nothing behind, or ≤ 7 days), DRIFT (≤ 30 days),
 * STALE (≤ 90 days), CRITICAL_STALE (> 90 days). History is read once (newest 5000 commits).
 */
import path from 'node:path'
import type { Git } from '../../engine/git.js'

export const DOC_STATES = ['FRESH', 'DRIFT', 'STALE', 'CRITICAL_STALE', 'EXEMPT'] as const
export type DocState = (typeof DOC_STATES)[number]
export const RANK_BUCKETS = ['0', '1-10', '11-50', '51-94', '95+'] as const
export const FRESH_DAYS = 7
export const DRIFT_DAYS = 30
export const STALE_DAYS = 90
const MAX_COMMITS = 5000
const MAX_DOCS = 1000
const DAY_S = 86_400
const EXEMPT =
  /(^|\/)(CHANGELOG|CHANGES|HISTORY|LICEN[CS]E|COPYING|CODE_OF_CONDUCT|CONTRIBUTING|SECURITY)(\.[^/]*)?$|(^|\/)(adr|archive|\.github)\//i

export interface DocHealthRow {
  path: string
  doc_rank: number
  state: DocState
  lastDocCommit: string | null
  lastCodeCommit: string | null
  daysBehind: number
}

export interface DocsHealthView {
  note?: string
  rows: DocHealthRow[]
  heatmap: Array<{ bucket: string; state: DocState; count: number }>
  generatedAt: string
}

interface Commit {
  time: number
  files: string[]
}

export function isDoc(file: string): boolean {
  return /\.md$/i.test(file) || file.startsWith('docs/')
}

export function rankBucket(rank: number): (typeof RANK_BUCKETS)[number] {
  return rank === 0 ? '0' : rank <= 10 ? '1-10' : rank <= 50 ? '11-50' : rank <= 94 ? '51-94' : '95+'
}

export function stateFor(file: string, rank: number, daysBehind: number, hasCode: boolean): DocState {
  if (EXEMPT.test(file) || !hasCode) return 'EXEMPT'
  if (rank === 0 || daysBehind <= FRESH_DAYS) return 'FRESH'
  if (daysBehind <= DRIFT_DAYS) return 'DRIFT'
  return daysBehind <= STALE_DAYS ? 'STALE' : 'CRITICAL_STALE'
}

export function heatmapOf(rows: readonly DocHealthRow[]): DocsHealthView['heatmap'] {
  return RANK_BUCKETS.flatMap((bucket) =>
    DOC_STATES.map((state) => ({
      bucket,
      state,
      count: rows.filter((row) => row.state === state && rankBucket(row.doc_rank) === bucket).length
    }))
  )
}

function parseLog(text: string): Commit[] {
  const commits: Commit[] = []
  for (const line of text.split('\n')) {
    if (line.startsWith('\x1e')) commits.push({ time: Number(line.slice(1)), files: [] })
    else if (line.trim() !== '' && commits.length > 0) commits[commits.length - 1]!.files.push(line)
  }
  return commits
}

// Commit times, not history order: a rebased or back-dated commit may sit above a newer one.
const newest = (commits: readonly Commit[]): number | null => (commits.length === 0 ? null : Math.max(...commits.map((c) => c.time)))
const iso = (seconds: number | null): string | null => (seconds === null ? null : new Date(seconds * 1000).toISOString())

/** Rows from the tracked files and the history (newest commit first); pure, so it is tested on its own. */
export function docRows(tracked: readonly string[], commits: readonly Commit[]): DocHealthRow[] {
  const docs = tracked.filter(isDoc).slice(0, MAX_DOCS)
  const code = tracked.filter((file) => !isDoc(file))
  return docs.map((doc) => {
    const dir = path.posix.dirname(doc)
    const inDir = (file: string) => dir === '.' || file.startsWith(`${dir}/`)
    const scope = code.some(inDir) ? inDir : () => true
    const isCode = (file: string) => !isDoc(file) && scope(file)
    const lastDoc = newest(commits.filter((c) => c.files.includes(doc)))
    const lastCode = newest(commits.filter((c) => c.files.some(isCode)))
    // A doc older than the scanned history is compared as if written at its oldest commit.
    const docTime = lastDoc ?? (commits.length === 0 ? 0 : Math.min(...commits.map((c) => c.time)))
    // "Behind" follows history order (log order, newest first): commits in one second still count.
    const docIndex = commits.findIndex((c) => c.files.includes(doc))
    const rank = commits.slice(0, docIndex === -1 ? commits.length : docIndex).filter((c) => c.files.some(isCode)).length
    const daysBehind = lastCode !== null && lastCode > docTime ? Math.floor((lastCode - docTime) / DAY_S) : 0
    return {
      path: doc,
      doc_rank: rank,
      state: stateFor(doc, rank, daysBehind, code.length > 0),
      lastDocCommit: iso(lastDoc),
      lastCodeCommit: iso(lastCode),
      daysBehind
    }
  })
}

export async function docsHealth(port: Git, projectRoot: string, now: Date): Promise<DocsHealthView> {
  const git = (args: string[]) => port.run(projectRoot, args)
  const generatedAt = now.toISOString()
  const inside = await git(['rev-parse', '--is-inside-work-tree'])
  if (inside.code !== 0 || inside.stdout.trim() !== 'true') return { note: 'not-a-git-repo', rows: [], heatmap: heatmapOf([]), generatedAt }
  const listed = await git(['ls-files', '-z'])
  if (listed.code !== 0) throw new Error(`git ls-files failed: ${listed.stderr.trim()}`)
  const tracked = listed.stdout.split('\0').filter((file) => file !== '' && !file.startsWith('.quartet/'))
  const log = await git(['log', `-n${MAX_COMMITS}`, '--format=%x1e%ct', '--name-only', '--no-renames', '--relative', '--', '.'])
  // A repository without commits has no history yet: every doc is compared against nothing.
  const commits = log.code === 0 ? parseLog(log.stdout) : []
  const rows = docRows(tracked, commits)
  return { ...(rows.length === 0 ? { note: 'no tracked docs' } : {}), rows, heatmap: heatmapOf(rows), generatedAt }
}
