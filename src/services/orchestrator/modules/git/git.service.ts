/**
 * Read-only views of the project's repository (`GET /api/git/status|diff|proposal`) and of the
 * engine's task branches `quartet/<sprint>/<task>`, so task work can be reviewed before merging.
 * Git runs with argv only, never through a shell; nothing here changes the repository.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Git, GitResult } from '../../engine/git.js'
import type { SprintsRepository } from '../../state/sprints.repository.js'
import type { TasksRepository } from '../../state/tasks.repository.js'
import { taskMergeability } from './mergeability.js'

export const DIFF_CAP_CHARS = 64_000
export const SUBJECT_MAX = 72
const MAX_TASK_BRANCHES = 100
const MAX_BRANCH_COMMITS = 20
const MAX_UNTRACKED = 500
const MAX_COUNTED_BYTES = 5 * 1024 * 1024
export const NOT_A_GIT_REPO = 'not-a-git-repo'

export interface StatusView {
  note?: string
  branch: string | null
  ahead: number
  behind: number
  entries: Array<{ path: string; code: string }>
  clean: boolean
}

export interface TaskBranch {
  branch: string
  sprintId: string | null
  taskId: string | null
  head: string
  /** Commits on the branch that HEAD does not contain yet. */
  ahead: number
  /** Its worktree holds uncommitted or untracked changes: work that is not on the branch, so not merged. */
  uncommitted: boolean
  merged: boolean
  commits: Array<{ sha: string; subject: string }>
}

export interface ProposalView {
  note?: string
  files: Array<{ path: string; insertions: number; deletions: number }>
  insertions: number
  deletions: number
  suggestedMessage: string
  taskBranches: TaskBranch[]
}

export function createGitReader(port: Git, root: string) {
  const git = (args: string[]): Promise<GitResult> => port.run(root, args)
  const ok = (args: string[]): Promise<string> => port.git(root, args)
  const isRepo = () => port.isRepo(root)
  const hasHead = async () => (await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).code === 0

  async function status(): Promise<StatusView> {
    if (!(await isRepo())) return { note: NOT_A_GIT_REPO, branch: null, ahead: 0, behind: 0, entries: [], clean: true }
    const parts = (await ok(['status', '--porcelain=v1', '--branch', '-z', '--', '.'])).split('\0')
    let branch: string | null = null
    let ahead = 0
    let behind = 0
    const entries: StatusView['entries'] = []
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!
      if (part === '') continue
      if (part.startsWith('## ')) {
        const header = part.slice(3)
        const name = /^(?:No commits yet on |Initial commit on )?(.+?)(?:\.\.\.\S+)?(?: \[.*\])?$/.exec(header)?.[1] ?? null
        branch = name === 'HEAD (no branch)' ? null : name
        ahead = Number(/ahead (\d+)/.exec(header)?.[1] ?? 0)
        behind = Number(/behind (\d+)/.exec(header)?.[1] ?? 0)
        continue
      }
      const code = part.slice(0, 2)
      entries.push({ path: part.slice(3), code })
      // A rename or copy is followed by its original path.
      if (code[0] === 'R' || code[0] === 'C') i++
    }
    return { branch, ahead, behind, entries, clean: entries.length === 0 }
  }

  async function diff(staged: boolean): Promise<{ note?: string; text: string; truncated: boolean }> {
    if (!(await isRepo())) return { note: NOT_A_GIT_REPO, text: '', truncated: false }
    const args = staged || !(await hasHead()) ? ['diff', '--staged', '--', '.'] : ['diff', 'HEAD', '--', '.']
    const text = await ok(args)
    return { text: text.slice(0, DIFF_CAP_CHARS), truncated: text.length > DIFF_CAP_CHARS }
  }

  /** branch → path of the worktree that has it checked out. */
  async function worktreesByBranch(): Promise<Map<string, string>> {
    const byBranch = new Map<string, string>()
    let current: string | null = null
    for (const line of (await ok(['worktree', 'list', '--porcelain'])).split('\n')) {
      if (line.startsWith('worktree ')) current = line.slice('worktree '.length)
      else if (current && line.startsWith('branch refs/heads/')) byBranch.set(line.slice('branch refs/heads/'.length), current)
    }
    return byBranch
  }

  async function taskBranches(): Promise<TaskBranch[]> {
    if (!(await isRepo())) return []
    const refs = (
      await ok(['for-each-ref', `--count=${MAX_TASK_BRANCHES}`, '--format=%(refname:short)%00%(objectname)', 'refs/heads/quartet/'])
    )
      .split('\n')
      .filter(Boolean)
    const head = await hasHead()
    const worktrees = await worktreesByBranch()
    return Promise.all(
      refs.map(async (line): Promise<TaskBranch> => {
        const [branch, sha] = line.split('\0') as [string, string]
        const segments = branch.split('/')
        const log = head ? await ok(['log', `--max-count=${MAX_BRANCH_COMMITS}`, '--format=%H%x00%s', `HEAD..${sha}`]) : ''
        const count = head ? Number((await ok(['rev-list', '--count', `HEAD..${sha}`])).trim()) : 0
        const worktree = worktrees.get(branch)
        const uncommitted =
          worktree !== undefined && (await port.run(worktree, ['status', '--porcelain=v1', '--untracked-files=all'])).stdout.trim() !== ''
        return {
          branch,
          sprintId: segments.length === 3 ? segments[1]! : null,
          taskId: segments.length === 3 ? segments[2]! : null,
          head: sha,
          ahead: count,
          uncommitted,
          merged: head && count === 0 && !uncommitted,
          commits: log
            .split('\n')
            .filter(Boolean)
            .map((entry) => {
              const [commitSha, subject] = entry.split('\0') as [string, string]
              return { sha: commitSha, subject }
            })
        }
      })
    )
  }

  async function proposal(options: { flowId?: string; intent?: string; fallbackRunId: string | null }): Promise<ProposalView> {
    const runId = options.flowId ?? options.fallbackRunId ?? 'local'
    if (!(await isRepo()))
      return {
        note: NOT_A_GIT_REPO,
        files: [],
        insertions: 0,
        deletions: 0,
        suggestedMessage: suggestMessage(options.intent, runId, options.flowId, []),
        taskBranches: []
      }
    const numstat = await ok(['diff', (await hasHead()) ? 'HEAD' : '--staged', '--numstat', '-z', '--no-renames', '--', '.'])
    const files = parseNumstat(numstat)
    const untracked = (await ok(['ls-files', '--others', '--exclude-standard', '-z', '--', '.'])).split('\0').filter(Boolean)
    for (const file of untracked.slice(0, MAX_UNTRACKED))
      files.push({ path: file, insertions: countLines(path.join(root, file)), deletions: 0 })
    // Code-point order, as git lists paths.
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    const insertions = files.reduce((sum, f) => sum + f.insertions, 0)
    const deletions = files.reduce((sum, f) => sum + f.deletions, 0)
    return {
      ...(files.length === 0 ? { note: 'clean' } : {}),
      files,
      insertions,
      deletions,
      suggestedMessage: suggestMessage(options.intent, runId, options.flowId, files),
      taskBranches: await taskBranches()
    }
  }

  return { isRepo, status, diff, proposal, taskBranches }
}

export interface GitServiceDeps {
  git: Git
  projectRoot: string
  projectId: number
  sprints: Pick<SprintsRepository, 'latest'>
  tasks: Pick<TasksRepository, 'listBySprint'>
}

/** The project's repository views as the routes serve them. */
export function createGitService(deps: GitServiceDeps) {
  const reader = createGitReader(deps.git, deps.projectRoot)
  return {
    async status() {
      return { ...(await reader.status()), taskBranches: await reader.taskBranches() }
    },
    diff: (staged: boolean) => reader.diff(staged),
    /** A proposal for the flow named, else for the newest sprint's run. */
    async proposal(input: { flowId?: string | undefined; intent?: string | undefined }) {
      const latest = await deps.sprints.latest(deps.projectId)
      const view = await reader.proposal({
        ...(input.flowId ? { flowId: input.flowId } : {}),
        ...(input.intent ? { intent: input.intent } : {}),
        fallbackRunId: latest?.id ?? null
      })
      if (view.note === NOT_A_GIT_REPO) return { ...view, target: null, tasks: [] }
      const head = await deps.git.run(deps.projectRoot, ['symbolic-ref', '--quiet', '--short', 'HEAD'])
      const target = head.code === 0 ? head.stdout.trim() : null
      const done = latest ? await deps.tasks.listBySprint(latest.id, ['DONE']) : []
      return { ...view, target, tasks: target ? await taskMergeability(deps.git, deps.projectRoot, target, done) : [] }
    }
  }
}
export type GitService = ReturnType<typeof createGitService>

/** Lines a new (untracked) file adds; binary or very large files count as 0, as numstat does for binaries. */
function countLines(file: string): number {
  try {
    const stat = fs.statSync(file)
    if (!stat.isFile() || stat.size > MAX_COUNTED_BYTES) return 0
    const content = fs.readFileSync(file)
    if (content.includes(0)) return 0
    const text = content.toString('utf8')
    return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
  } catch {
    return 0
  }
}

/** `git diff --numstat -z` lines: "<added>\t<deleted>\t<path>" (binary files count as 0). */
export function parseNumstat(text: string): ProposalView['files'] {
  return text
    .split('\0')
    .filter((part) => part.includes('\t'))
    .map((part) => {
      const [added, deleted, ...rest] = part.replace(/^\n/, '').split('\t')
      return { path: rest.join('\t').trim(), insertions: Number(added) || 0, deletions: Number(deleted) || 0 }
    })
}

export function suggestMessage(
  intent: string | undefined,
  runId: string,
  flowId: string | undefined,
  files: ProposalView['files']
): string {
  const firstLine = intent
    ?.split('\n')
    .find((line) => line.trim() !== '')
    ?.trim()
  const subject = firstLine ? firstLine.slice(0, SUBJECT_MAX) : `quartet: run ${runId.slice(0, 8)} changes`
  const body = files.map((f) => `- ${f.path} (+${f.insertions} -${f.deletions})`).join('\n')
  const trailer = flowId ? `quartet-run: ${flowId}` : ''
  return [subject, body, trailer].filter(Boolean).join('\n\n')
}
