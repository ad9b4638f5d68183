/**
 * The merge queue: lands the DONE tasks of a sprint (or a flow's sprint) on a target branch, in
 * dependency order and first-in-first-out by completion, one task at a time, through
 * integrate.ts. Each task ends MERGED, CONFLICT (with files), RESOLVED (`resolveWith`: an agent
 * resolved its conflict on its branch, which waits there for review and lands on a later run),
 * CHECK_FAILED, SKIPPED (a dependency did not land) or INTERRUPTED (its run's process died); a
 * run's state is in the database, so `GET /api/merge/:id` follows it from any process, and a
 * re-run skips what landed.
 */
import os from 'node:os'
import path from 'node:path'
import type { OrchestratorEvents } from '../../engine/events.js'
import type { Git } from '../../engine/git.js'
import type { EnginePlatform } from '../../engine/types.js'
import { orchestratorError } from '../../errors.js'
import type { AccessPolicy } from '../../policy.js'
import type { Principal } from '../../principal.js'
import type { ProjectConfigSource } from '../../project/config-source.js'
import type { Task } from '../../state/domain.js'
import type { MergeItemStatus, MergeRun, MergesRepository, MergeStrategy } from '../../state/merges.repository.js'
import type { OrchestratorRepositories } from '../../state/repositories.js'
import type { RunFlowsRepository } from '../../state/run-flows.repository.js'
import { createIntegrator, TEMP_REF_PREFIX } from './integrate.js'
import { createConflictResolver, resolverProblem } from './resolve.js'
import { removeScratchWorktrees } from './scratch-worktrees.js'

const CAS_TRIES = 3
const running = new Set<string>()

export interface MergeRequest {
  /** A sprint id or a flow id (the CLI's argument). */
  ref?: string
  sprintId?: string
  flowId?: string
  taskIds?: string[]
  into?: string
  strategy?: MergeStrategy
  /** A configured command agent that gets each CONFLICT to resolve (`--resolve-with`). */
  resolveWith?: string
}

export interface MergeDeps {
  projectId: number
  projectRoot: string
  dataDir: string
  git: Git
  platform: Pick<EnginePlatform, 'spawn'>
  config: ProjectConfigSource
  policy: AccessPolicy
  repositories: Pick<OrchestratorRepositories, 'tasks' | 'sprints' | 'events'> & { runFlows: RunFlowsRepository; merges: MergesRepository }
  newId(prefix: string): string
  notify(): void
}

/** Dependencies first; among the tasks ready, the one that finished first (no newer task jumps an older one). */
export function queueOrder(tasks: readonly Task[]): Task[] {
  const byKey = new Map(tasks.map((t) => [t.key, t]))
  const placed = new Set<string>()
  const order: Task[] = []
  const rest = [...tasks].sort((a, b) => (a.finishedAt ?? '').localeCompare(b.finishedAt ?? '') || a.position - b.position)
  while (rest.length > 0) {
    const next = rest.findIndex((t) => t.dependencies.every((key) => !byKey.has(key) || placed.has(key)))
    // A cycle cannot be planned; should one exist, the oldest goes next rather than none.
    const [task] = rest.splice(next < 0 ? 0 : next, 1)
    placed.add(task!.key)
    order.push(task!)
  }
  return order
}

function alive(pid: number | null, hostname: string | null, id: string): boolean {
  if (pid === null) return false
  // Another machine's process cannot be probed: its run is left to it.
  if (hostname !== os.hostname()) return true
  if (pid === process.pid) return running.has(id)
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export function createMergeService(deps: MergeDeps) {
  const { projectId, repositories: repos } = deps
  const integrator = createIntegrator({ git: deps.git, root: deps.projectRoot, platform: deps.platform })
  const resolver = createConflictResolver({
    git: deps.git,
    integrator,
    root: deps.projectRoot,
    dataDir: deps.dataDir,
    platform: deps.platform
  })

  async function append<K extends 'merge_started' | 'merge_task' | 'merge_finished'>(type: K, data: OrchestratorEvents[K]) {
    await repos.events.append(projectId, { type, data })
    deps.notify()
  }

  /** Runs whose process died: open items become INTERRUPTED, a step cut after the target moved is finished. */
  async function recover(): Promise<void> {
    for (const run of await repos.merges.running(projectId)) {
      if (alive(run.pid, run.hostname, run.id)) continue
      for (const item of run.items.filter((i) => i.status === 'MERGING' && i.commitSha && i.reason?.startsWith('base:'))) {
        // The target already points at this item's commit: only the checked-out trees may lag behind.
        if ((await integrator.revParse(`refs/heads/${run.target}`)) !== item.commitSha) continue
        const old = item.reason!.slice('base:'.length)
        for (const tree of await integrator.checkedOut(run.target))
          await integrator.updateWorktree(tree, old, item.commitSha!).catch(() => undefined)
        await repos.merges.setItem(run.id, item.position, { status: 'MERGED', reason: null })
      }
      await repos.merges.interruptOpenItems(run.id, 'the merge process stopped before this task was merged; run the merge again')
      const refs = await deps.git.run(deps.projectRoot, ['for-each-ref', '--format=%(refname)', TEMP_REF_PREFIX])
      for (const ref of refs.stdout.split('\n').filter((r) => r.startsWith(`${TEMP_REF_PREFIX}${run.id}-`))) {
        await deps.git.run(deps.projectRoot, ['update-ref', '-d', ref])
      }
      const scratch = ['merge-check', 'merge-resolve'].map((dir) => path.join(deps.dataDir, 'orchestrator', dir, run.id))
      await removeScratchWorktrees(deps.git, deps.projectRoot, run.id, scratch)
      await repos.merges.finish(run.id, 'interrupted', 'the merge process stopped')
    }
  }

  /** Checks the request and queues the run (nothing merged yet). */
  async function prepare(caller: Principal, input: MergeRequest): Promise<{ run: MergeRun; tasks: Task[] }> {
    deps.policy.assertControl(caller)
    if (!(await deps.git.isRepo(deps.projectRoot))) throw orchestratorError('ORCH_MERGE_INVALID', 'the project is not a git repository')
    await recover()
    const active = (await repos.merges.running(projectId))[0]
    if (active) throw orchestratorError('ORCH_MERGE_ACTIVE', `merge ${active.id} is running: one merge queue per project at a time`)
    let sprintId = input.sprintId
    if (input.ref !== undefined) {
      const sprint = await repos.sprints.get(input.ref)
      if (sprint?.projectId === projectId) sprintId = sprint.id
      else sprintId = (await repos.runFlows.get(projectId, input.ref))?.sprintId ?? input.ref
    }
    if (input.flowId !== undefined) {
      const flow = await repos.runFlows.get(projectId, input.flowId)
      if (!flow || !flow.sprintId) throw orchestratorError('ORCH_FLOW_NOT_FOUND')
      sprintId = flow.sprintId
    }
    const sprint = sprintId === undefined ? await repos.sprints.latest(projectId) : await repos.sprints.get(sprintId)
    if (!sprint || sprint.projectId !== projectId) throw orchestratorError('ORCH_SPRINT_NOT_FOUND')
    if (input.resolveWith !== undefined) {
      const problem = resolverProblem(deps.config.current(), input.resolveWith)
      if (problem) throw orchestratorError('ORCH_MERGE_INVALID', `--resolve-with: ${problem}`)
    }
    const target = input.into ?? (await integrator.currentBranch())
    if (!target) throw orchestratorError('ORCH_MERGE_INVALID', 'HEAD is detached: name the target branch (--into / into)')
    if (!(await integrator.revParse(`refs/heads/${target}`))) throw orchestratorError('ORCH_MERGE_INVALID', `no branch ${target}`)
    let tasks = await repos.tasks.listBySprint(sprint.id, ['DONE'])
    if (input.taskIds) {
      const wanted = new Set(input.taskIds)
      const unknown = input.taskIds.filter((id) => !tasks.some((t) => t.id === id))
      if (unknown.length > 0) throw orchestratorError('ORCH_MERGE_INVALID', `not DONE tasks of sprint ${sprint.id}: ${unknown.join(', ')}`)
      tasks = tasks.filter((t) => wanted.has(t.id))
    }
    const ordered = queueOrder(tasks)
    const run = await repos.merges.createIfIdle({
      id: deps.newId('mrg'),
      projectId,
      sprintId: sprint.id,
      target,
      strategy: input.strategy ?? 'merge',
      pid: process.pid,
      hostname: os.hostname(),
      taskIds: ordered.map((t) => t.id)
    })
    // Another merge started between the check above and now.
    if (!run) throw orchestratorError('ORCH_MERGE_ACTIVE', 'another merge started meanwhile: one merge queue per project at a time')
    running.add(run.id)
    return { run, tasks: await repos.tasks.listBySprint(sprint.id) }
  }

  async function processRun(run: MergeRun, sprintTasks: Task[], resolveWith?: string): Promise<MergeRun> {
    const config = deps.config.current()
    const byId = new Map(sprintTasks.map((t) => [t.id, t]))
    const byKey = new Map(sprintTasks.map((t) => [t.key, t]))
    const landed = new Set<string>()
    const awaitingReview = new Set<string>()
    await append('merge_started', { mergeId: run.id, target: run.target, strategy: run.strategy, tasks: run.items.map((i) => i.taskId) })
    let stopped: string | null = null
    try {
      for (const item of run.items) {
        const task = byId.get(item.taskId)!
        const set = async (status: MergeItemStatus, more: { files?: string[]; commitSha?: string | null; reason?: string | null } = {}) => {
          await repos.merges.setItem(run.id, item.position, { status, ...more })
          if (status === 'MERGED') landed.add(task.key)
          await append('merge_task', {
            mergeId: run.id,
            taskId: task.id,
            status,
            files: more.files ?? [],
            commitSha: more.commitSha ?? null,
            reason: more.reason ?? null
          })
        }
        if (stopped) {
          await set('SKIPPED', { reason: stopped })
          continue
        }
        const head = task.branch ? await integrator.revParse(`refs/heads/${task.branch}`) : null
        if (!head) {
          await set('SKIPPED', { reason: `the task has no branch${task.branch ? ` (${task.branch} is gone)` : ''}` })
          continue
        }
        const target = (await integrator.revParse(`refs/heads/${run.target}`))!
        const unmerged: string[] = []
        for (const key of task.dependencies) {
          const dep = byKey.get(key)
          if (!dep || landed.has(key)) continue
          const depHead = dep.branch ? await integrator.revParse(`refs/heads/${dep.branch}`) : null
          if (!depHead || !(await integrator.isAncestor(depHead, target)))
            unmerged.push(awaitingReview.has(key) ? `${dep.id} (resolved by an agent, waiting for review)` : dep.id)
        }
        if (unmerged.length > 0) {
          await set('SKIPPED', { reason: `dependency ${unmerged.join(', ')} is not merged` })
          continue
        }
        await repos.merges.setItem(run.id, item.position, { status: 'MERGING' })
        // A resolution a person has reviewed lands as it is: under rebase a replay of the task's own commits would meet
        // the conflict it resolved again, so it lands as one commit on top of the target.
        const recorded = await repos.merges.latestResolution(projectId, task.id)
        const reviewed = recorded?.commitSha === head ? recorded : undefined
        const strategy = reviewed && run.strategy === 'rebase' ? 'squash' : run.strategy
        let outcome = await landOne(run, item.position, task, head, config, strategy)
        if (outcome.status === 'MERGED' && reviewed && outcome.reason === undefined)
          outcome.reason = `the agent's resolution from merge ${reviewed.mergeId} landed after review`
        if (outcome.status === 'CONFLICT' && resolveWith !== undefined) {
          await repos.merges.setItem(run.id, item.position, {
            status: 'MERGING',
            files: outcome.files ?? [],
            reason: `resolving with ${resolveWith}`
          })
          const resolution = await resolver.resolve({
            config,
            agentName: resolveWith,
            task,
            target: run.target,
            targetSha: (await integrator.revParse(`refs/heads/${run.target}`))!,
            key: `${run.id}-${item.position}`
          })
          if (!resolution.ok) outcome = { status: 'CONFLICT', files: outcome.files ?? [], reason: resolution.reason }
          else {
            // Not landed: the resolution waits on the task's branch for a person to review it; a later run lands it.
            awaitingReview.add(task.key)
            await set('RESOLVED', {
              files: outcome.files ?? [],
              commitSha: resolution.head,
              reason: `conflicts resolved by ${resolveWith}, not landed until reviewed (log: ${resolution.log}); undo: ${resolution.undo}`
            })
            continue
          }
        }
        if (outcome.status === 'REFUSED') {
          stopped = `merge stopped: ${outcome.reason}`
          await set('CONFLICT', { files: outcome.files, reason: outcome.reason })
          continue
        }
        await set(outcome.status, { files: outcome.files ?? [], commitSha: outcome.commitSha ?? null, reason: outcome.reason ?? null })
      }
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error)
      await repos.merges.interruptOpenItems(run.id, why)
      await repos.merges.finish(run.id, 'failed', why)
      running.delete(run.id)
      throw error
    }
    const done = (await repos.merges.get(projectId, run.id))!
    const merged = done.items.filter((i) => i.status === 'MERGED').length
    const resolved = done.items.filter((i) => i.status === 'RESOLVED').map((i) => i.taskId)
    const waiting =
      resolved.length > 0
        ? `${resolved.join(', ')} resolved by an agent and waiting for review: ` +
          `quartet review ${resolved.length === 1 ? resolved[0] : '<task>'}, then quartet merge lands it`
        : null
    await repos.merges.finish(
      run.id,
      merged === done.items.length ? 'done' : 'failed',
      [stopped, waiting].filter(Boolean).join('; ') || null
    )
    running.delete(run.id)
    await append('merge_finished', {
      mergeId: run.id,
      status: merged === done.items.length ? 'done' : 'failed',
      merged,
      total: done.items.length
    })
    return (await repos.merges.get(projectId, run.id))!
  }

  type Outcome =
    | { status: 'MERGED' | 'CONFLICT' | 'CHECK_FAILED'; files?: string[]; commitSha?: string; reason?: string }
    | { status: 'REFUSED'; files: string[]; reason: string }

  async function landOne(
    run: MergeRun,
    position: number,
    task: Task,
    head: string,
    config: ReturnType<ProjectConfigSource['current']>,
    strategy: MergeStrategy = run.strategy
  ): Promise<Outcome> {
    const temp = `${run.id}-${position}`
    for (let attempt = 1; ; attempt++) {
      const old = (await integrator.revParse(`refs/heads/${run.target}`))!
      if (await integrator.isAncestor(head, old)) return { status: 'MERGED', commitSha: old, reason: 'already in the target' }
      const subject = `${strategy === 'squash' ? '' : 'Merge '}${task.id}: ${task.title}`
      const message = `${subject}\n\nquartet-task: ${task.id}\nquartet-merge: ${run.id}\n`
      const integrated = await integrator.integrate(old, head, strategy, message, { 'quartet-task': task.id, 'quartet-merge': run.id })
      if (integrated.kind === 'conflict') {
        const step = integrated.commit ? ` (replaying ${integrated.commit.slice(0, 10)})` : ''
        return { status: 'CONFLICT', files: integrated.files, reason: `conflicts in ${integrated.files.join(', ')}${step}` }
      }
      // A squashed task merged before changes nothing now: the target already holds its work.
      if (integrated.tree === (await integrator.treeOf(old))) return { status: 'MERGED', commitSha: old, reason: 'already in the target' }
      await integrator.setTempRef(temp, integrated.sha)
      try {
        const command = task.check ?? config.check.command
        if (command !== undefined) {
          const dir = path.join(deps.dataDir, 'orchestrator', 'merge-check', temp)
          const checked = await integrator.check(integrated.sha, command, { dir, timeoutMs: config.check.timeout_seconds * 1000 })
          if (!checked.ok)
            return { status: 'CHECK_FAILED', reason: `the check failed on the integrated tree: ${checked.output || 'no output'}` }
        }
        const touched = await integrator.changedFiles(old, integrated.sha)
        const trees = await integrator.checkedOut(run.target)
        for (const tree of trees) {
          const dirty = (await integrator.dirtyFiles(tree)).filter((f) => touched.includes(f))
          if (dirty.length > 0) {
            return {
              status: 'REFUSED',
              files: dirty,
              reason:
                `${tree} has ${run.target} checked out with uncommitted changes to ${dirty.join(', ')}: ` +
                'commit or stash them, then merge again'
            }
          }
        }
        // Recorded before the target moves: a crash after the swap is finished by recover().
        await repos.merges.setItem(run.id, position, { status: 'MERGING', commitSha: integrated.sha, reason: `base:${old}` })
        if (!(await integrator.compareAndSwap(run.target, integrated.sha, old, `quartet merge ${run.id}: ${task.id}`))) {
          if (attempt >= CAS_TRIES) return { status: 'REFUSED', files: [], reason: `${run.target} kept moving while merging ${task.id}` }
          continue
        }
        for (const tree of trees) await integrator.updateWorktree(tree, old, integrated.sha)
        return { status: 'MERGED', commitSha: integrated.sha }
      } finally {
        await integrator.deleteTempRef(temp)
      }
    }
  }

  return {
    recover,

    /** Runs the queue to its end (the CLI). */
    async mergeNow(caller: Principal, input: MergeRequest): Promise<MergeRun> {
      const { run, tasks } = await prepare(caller, input)
      return processRun(run, tasks, input.resolveWith)
    },

    /** Queues the run and processes it in the background (HTTP: 202 with its id). */
    async start(caller: Principal, input: MergeRequest, onError: (error: unknown) => void): Promise<MergeRun> {
      const { run, tasks } = await prepare(caller, input)
      void processRun(run, tasks, input.resolveWith).catch(onError)
      return run
    },

    /** The project's merge runs, newest first, one page at a time. */
    async list(page: { limit: number; before?: string }): Promise<{ runs: MergeRun[]; next: string | null }> {
      await recover()
      if (page.before !== undefined && !(await repos.merges.get(projectId, page.before))) throw orchestratorError('ORCH_MERGE_NOT_FOUND')
      return repos.merges.list(projectId, page)
    },

    async get(mergeId: string): Promise<MergeRun> {
      await recover()
      const run = await repos.merges.get(projectId, mergeId)
      if (!run) throw orchestratorError('ORCH_MERGE_NOT_FOUND')
      return run
    }
  }
}
export type MergeService = ReturnType<typeof createMergeService>
