/**
 * Review of the agents' work before it lands: each task's diff against the base its worktree was
 * made from (`GET /api/sprint/task/:id/diff`, `quartet review`). A task whose conflict an agent
 * resolved (merge item RESOLVED, its branch still at that resolution) is shown against the target
 * it will land on instead, since its branch now holds the target's work too, with how to land or
 * undo it. Nothing here changes the repository.
 */
import type { Git } from '../../engine/git.js'
import { diffStat, taskRange, type FileStat } from '../../engine/task-diff.js'
import { orchestratorError } from '../../errors.js'
import type { Task } from '../../state/domain.js'
import type { MergesRepository } from '../../state/merges.repository.js'
import type { OrchestratorRepositories } from '../../state/repositories.js'
import type { RunFlowsRepository } from '../../state/run-flows.repository.js'
import { assertTaskId } from '../tasks/tasks.service.js'
import { RESOLVE_REF_PREFIX, undoCommand } from './resolve.js'

/** The unified diff is inlined up to this many characters; `diffBytes` says how large it was. */
export const INLINE_DIFF_CAP = 64_000

export interface TaskDiff {
  taskId: string
  sprintId: string
  title: string
  status: string
  branch: string | null
  base: string | null
  head: string | null
  files: FileStat[]
  insertions: number
  deletions: number
  diff: string
  truncated: boolean
  diffBytes: number
  note?: string
  /** Present while an agent's conflict resolution waits on the branch for review. */
  resolution?: PendingResolution
}

export interface PendingResolution {
  mergeId: string
  /** The branch it lands on; the diff is against its merge base with the resolution. */
  target: string
  commit: string
  /** The branch's head before the resolution (kept under refs/quartet-resolve/), null when that ref is gone. */
  before: string | null
  files: string[]
  reason: string | null
  land: string
  undo: string | null
}

export interface ReviewOptions {
  /** Files and counts only, no unified diff. */
  stat?: boolean
  /** Characters of unified diff kept (default INLINE_DIFF_CAP). */
  cap?: number
}

export interface ReviewDeps {
  projectId: number
  projectRoot: string
  git: Git
  repositories: Pick<OrchestratorRepositories, 'tasks' | 'sprints'> & {
    runFlows: RunFlowsRepository
    merges: Pick<MergesRepository, 'latestResolution'>
  }
}

export function createReviewService(deps: ReviewDeps) {
  const { git, projectRoot: root, repositories: repos } = deps

  async function rev(spec: string): Promise<string | null> {
    const out = await git.run(root, ['rev-parse', '--verify', '--quiet', `${spec}^{commit}`])
    return out.code === 0 ? out.stdout.trim() : null
  }

  /** The agent resolution waiting on the task's branch (its head is that resolution, not merged since), if any. */
  async function pendingResolution(task: Task, head: string): Promise<{ resolution: PendingResolution; base: string } | null> {
    const recorded = await repos.merges.latestResolution(deps.projectId, task.id)
    if (!recorded || recorded.commitSha !== head || recorded.mergedSince || !task.branch) return null
    const target = await rev(`refs/heads/${recorded.target}`)
    const mergeBase = target ? await git.run(root, ['merge-base', target, head]) : null
    if (!mergeBase || mergeBase.code !== 0) return null
    const before = await rev(`${RESOLVE_REF_PREFIX}${recorded.mergeId}-${recorded.position}-before`)
    const resolution: PendingResolution = {
      mergeId: recorded.mergeId,
      target: recorded.target,
      commit: recorded.commitSha,
      before,
      files: recorded.files,
      reason: recorded.reason,
      land: `quartet merge ${task.sprintId} --into ${recorded.target}`,
      undo: before ? await undoCommand(git, root, task.branch, before) : null
    }
    return { resolution, base: mergeBase.stdout.trim() }
  }

  async function diffOf(task: Task, options: ReviewOptions = {}): Promise<TaskDiff> {
    const base = { taskId: task.id, sprintId: task.sprintId, title: task.title, status: task.status, branch: task.branch }
    const empty = { files: [], insertions: 0, deletions: 0, diff: '', truncated: false, diffBytes: 0 }
    if (!(await git.isRepo(root))) return { ...base, base: null, head: null, ...empty, note: 'not-a-git-repo' }
    let range = await taskRange(git, root, task)
    if (!range) return { ...base, base: null, head: null, ...empty, note: task.branch ? 'branch-missing' : 'no-branch' }
    const pending = await pendingResolution(task, range.head)
    if (pending) range = { base: pending.base, head: range.head }
    const extra = pending ? { resolution: pending.resolution } : {}
    const files = (await diffStat(git, root, range)) ?? []
    const totals = { insertions: files.reduce((n, f) => n + f.insertions, 0), deletions: files.reduce((n, f) => n + f.deletions, 0) }
    if (options.stat) return { ...base, ...range, files, ...totals, diff: '', truncated: false, diffBytes: 0, ...extra }
    const text = await git.git(root, ['diff', '--no-color', '--no-ext-diff', `${range.base}..${range.head}`, '--'])
    const cap = options.cap ?? INLINE_DIFF_CAP
    const truncated = text.length > cap
    return {
      ...base,
      ...range,
      files,
      ...totals,
      diff: truncated ? text.slice(0, cap) : text,
      truncated,
      diffBytes: Buffer.byteLength(text),
      ...extra
    }
  }

  return {
    /** One task of this project (a task of another project is not found). */
    async taskDiff(taskId: string): Promise<TaskDiff> {
      assertTaskId(taskId)
      const task = await repos.tasks.getInProject(deps.projectId, taskId)
      if (!task) throw orchestratorError('ORCH_TASK_NOT_FOUND')
      return diffOf(task)
    },

    /**
     * The DONE tasks of a sprint, of a flow's sprint, or one task (any status); with no reference,
     * the newest sprint's.
     */
    async review(ref: string | undefined, options: ReviewOptions = {}): Promise<{ scope: string; diffs: TaskDiff[] }> {
      if (ref !== undefined) {
        const task = await repos.tasks.getInProject(deps.projectId, ref)
        if (task) return { scope: `task ${task.id}`, diffs: [await diffOf(task, options)] }
      }
      let sprintId: string | undefined
      if (ref === undefined) sprintId = (await repos.sprints.latest(deps.projectId))?.id
      else {
        const sprint = await repos.sprints.get(ref)
        if (sprint?.projectId === deps.projectId) sprintId = sprint.id
        else sprintId = (await repos.runFlows.get(deps.projectId, ref))?.sprintId ?? undefined
      }
      if (sprintId === undefined)
        throw orchestratorError('ORCH_SPRINT_NOT_FOUND', ref ? `no sprint, flow or task ${JSON.stringify(ref)}` : undefined)
      const tasks = await repos.tasks.listBySprint(sprintId, ['DONE'])
      const diffs: TaskDiff[] = []
      for (const task of tasks) diffs.push(await diffOf(task, options))
      return { scope: `sprint ${sprintId}`, diffs }
    }
  }
}
export type ReviewService = ReturnType<typeof createReviewService>
