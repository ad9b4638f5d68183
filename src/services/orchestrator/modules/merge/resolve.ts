/**
 * `--resolve-with <agent>`: a CONFLICT goes back to an agent. In the task's worktree (the one that
 * has its branch checked out, or a temporary one) git merges the integration result into the
 * branch; the agent gets the conflicting files and both sides in its prompt and must finish that
 * merge with a commit. Its result is accepted only as a commit that contains the integration
 * result, with a clean tree and no conflict markers left; otherwise the branch and worktree are put
 * back as they were (the attempt is kept under refs/quartet-resolve/) and the reason is returned.
 * An accepted resolution stays on the task's branch, not landed: a person reviews it first. The
 * branch's head before it is kept under refs/quartet-resolve/<key>-before (and the resolution under
 * <key>-resolved), so putting the branch back loses nothing.
 */
import fs from 'node:fs'
import path from 'node:path'
import { resolveCommand, writePromptFile, type CommandAgentConfig } from '../../engine/agents/command-agent.js'
import { launchContext } from '../../engine/agents/quartet-command.js'
import { pickAgent } from '../../engine/pick-agent.js'
import type { Git } from '../../engine/git.js'
import { runProcess } from '../../engine/process-group.js'
import type { EnginePlatform } from '../../engine/types.js'
import type { ProjectConfig } from '../../project/config-schema.js'
import type { Task } from '../../state/domain.js'
import type { Integrator } from './integrate.js'

export const RESOLVE_REF_PREFIX = 'refs/quartet-resolve/'
const SIDE_CHARS = 8000
const MARKER = '^(<<<<<<<|>>>>>>>)( |$)'

export type Resolution =
  { ok: true; head: string; before: string; undo: string; log: string } | { ok: false; reason: string; files: string[] }

/** The worktree that has `branch` checked out, if any. */
export async function worktreeOf(git: Git, root: string, branch: string): Promise<string | null> {
  let current: string | null = null
  for (const line of (await git.git(root, ['worktree', 'list', '--porcelain'])).split('\n')) {
    if (line.startsWith('worktree ')) current = line.slice('worktree '.length)
    else if (line === `branch refs/heads/${branch}` && current) return current
  }
  return null
}

/** The command that puts `branch` back at `before`: git refuses `branch -f` on a branch a worktree has checked out. */
export async function undoCommand(git: Git, root: string, branch: string, before: string): Promise<string> {
  const dir = await worktreeOf(git, root, branch)
  return dir === null ? `git branch -f ${branch} ${before}` : `git -C ${dir} reset --keep ${before}`
}

/** Why this agent cannot resolve conflicts, or null when it can. */
export function resolverProblem(config: ProjectConfig, agentName: string): string | null {
  const picked = pickAgent(config, agentName)
  if ('error' in picked) return picked.error
  if (picked.agent.kind !== 'command') return `agent "${agentName}" is a ${picked.agent.kind} agent: conflicts go to a command agent`
  return null
}

function conflictPrompt(task: Task, target: string, files: string[], sides: Map<string, { ours: string; theirs: string }>): string {
  const parts = [
    `Resolve the merge conflicts of task ${task.id} ("${task.title}").`,
    '',
    `Its branch ${task.branch} is being merged with ${target}, the work already landed. Git stopped with conflicts in:`,
    ...files.map((file) => `- ${file}`),
    '',
    'The working tree holds these files with conflict markers. Edit each so that the intent of both sides is kept,',
    'remove every marker, `git add` them and finish the merge with `git commit --no-edit`. Change nothing else.',
    ''
  ]
  for (const [file, side] of sides) {
    parts.push(`### ${file}: the task's side`, '```', side.ours, '```', `### ${file}: ${target}'s side`, '```', side.theirs, '```', '')
  }
  return parts.join('\n')
}

interface ResolveInput {
  config: ProjectConfig
  agentName: string
  task: Task
  target: string
  targetSha: string
  key: string
}

export function createConflictResolver(deps: {
  git: Git
  integrator: Integrator
  root: string
  dataDir: string
  platform: Pick<EnginePlatform, 'spawn'>
}) {
  const { git } = deps

  async function show(dir: string, spec: string): Promise<string> {
    const out = await git.run(dir, ['show', spec])
    if (out.code !== 0) return '(absent on this side)'
    return out.stdout.length > SIDE_CHARS ? `${out.stdout.slice(0, SIDE_CHARS)}\n… (cut at ${SIDE_CHARS} characters)` : out.stdout
  }

  /** Puts the branch and worktree back at `head`, keeping what the agent left under a ref. */
  async function restore(dir: string, head: string, keep: string): Promise<string> {
    await git.run(dir, ['add', '-A'])
    const tree = (await git.run(dir, ['write-tree'])).stdout.trim()
    const now = (await git.run(dir, ['rev-parse', 'HEAD'])).stdout.trim()
    let kept = ''
    if (tree && now) {
      const identity = ['-c', 'user.name=Quartet merge queue', '-c', 'user.email=quartet@localhost']
      const attempt = await git.run(dir, [
        ...identity,
        'commit-tree',
        tree,
        '-p',
        now,
        '-m',
        'failed conflict resolution (kept by quartet)'
      ])
      if (attempt.code === 0) {
        await git.run(dir, ['update-ref', `${RESOLVE_REF_PREFIX}${keep}`, attempt.stdout.trim()])
        kept = ` (its attempt is kept at ${RESOLVE_REF_PREFIX}${keep})`
      }
    }
    await git.run(dir, ['merge', '--abort'])
    await git.git(dir, ['reset', '-q', '--hard', head])
    await git.git(dir, ['clean', '-fdq'])
    return kept
  }

  type Agent = { name: string; agent: CommandAgentConfig }
  type Accepted = Omit<Extract<Resolution, { ok: true }>, 'undo'>

  /** The merge, the agent and the acceptance checks, in `dir` (which has the task's branch checked out). */
  async function attempt(
    dir: string,
    input: ResolveInput,
    picked: Agent,
    workDir: string
  ): Promise<Accepted | Extract<Resolution, { ok: false }>> {
    const { task, config } = input
    const branch = task.branch!
    const dirty = await deps.integrator.dirtyFiles(dir)
    if (dirty.length > 0) return { ok: false, reason: `${dir} has uncommitted changes (${dirty.join(', ')})`, files: dirty }
    const head = (await git.git(dir, ['rev-parse', 'HEAD'])).trim()
    const email = (await git.run(dir, ['config', 'user.email'])).stdout.trim()
    const identity = email ? [] : ['-c', 'user.name=Quartet merge queue', '-c', 'user.email=quartet@localhost']
    await git.run(dir, [...identity, 'merge', '--no-ff', '--no-commit', '-m', `Merge ${input.target} into ${branch}`, input.targetSha])
    const files = (await git.git(dir, ['diff', '--name-only', '--diff-filter=U'])).split('\n').filter(Boolean)
    const sides = new Map<string, { ours: string; theirs: string }>()
    for (const file of files) sides.set(file, { ours: await show(dir, `:2:${file}`), theirs: await show(dir, `:3:${file}`) })
    const prompt = conflictPrompt(task, input.target, files, sides)
    const promptFile = writePromptFile(deps.dataDir, task.sprintId, `${task.id}.resolve-${input.key}`, 1, prompt)
    const logFile = path.join(workDir, `${input.key}.log`)
    const env: Record<string, string | undefined> = { ...process.env, ...picked.agent.env }
    const context = launchContext(deps.root, { taskId: task.id, sprintId: task.sprintId }, env)
    const resolved = resolveCommand(picked.name, picked.agent, { prompt, promptFile, taskId: task.id, workdir: dir }, context)
    const run = await runProcess(
      {
        command: resolved.command,
        args: resolved.args,
        cwd: dir,
        env: { ...env, ...resolved.env, QUARTET_TASK_ID: task.id, QUARTET_SPRINT_ID: task.sprintId },
        logFile,
        logCapBytes: config.engine.log_cap_bytes,
        timeoutMs: config.engine.task_timeout_seconds * 1000,
        killGraceMs: Math.round(config.engine.kill_grace_seconds * 1000)
      },
      deps.platform
    )
    const fail = async (why: string) => ({
      ok: false as const,
      reason: `${input.agentName} did not resolve: ${why}${await restore(dir, head, input.key)}`,
      files
    })
    if (run.spawnError) return await fail(`it could not be started (${run.spawnError})`)
    if (run.timedOut) return await fail('it timed out')
    if (run.exitCode !== 0) return await fail(`it exited with ${run.exitCode ?? run.signal}`)
    const unmerged = (await git.git(dir, ['diff', '--name-only', '--diff-filter=U'])).split('\n').filter(Boolean)
    if (unmerged.length > 0) return await fail(`conflicts left unresolved in ${unmerged.join(', ')}`)
    const now = (await git.git(dir, ['rev-parse', 'HEAD'])).trim()
    const left = await deps.integrator.dirtyFiles(dir)
    if (now === head) return await fail(`it made no commit${left.length > 0 ? ` and left ${left.join(', ')} uncommitted` : ''}`)
    if (left.length > 0) return await fail(`it left a dirty tree (${left.join(', ')})`)
    if (!(await deps.integrator.isAncestor(input.targetSha, now))) return await fail(`its commit does not contain ${input.target}`)
    if ((await deps.integrator.revParse(`refs/heads/${branch}`)) !== now) return await fail(`its commit is not on ${branch}`)
    const marked = await git.run(dir, ['grep', '-l', '-I', '-E', MARKER, now, '--', ...files])
    if (marked.code === 0) {
      const where = marked.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.slice(now.length + 1))
      return await fail(`conflict markers left in ${where.join(', ')}`)
    }
    await git.git(dir, ['update-ref', `${RESOLVE_REF_PREFIX}${input.key}-before`, head])
    await git.git(dir, ['update-ref', `${RESOLVE_REF_PREFIX}${input.key}-resolved`, now])
    return { ok: true, head: now, before: head, log: logFile }
  }

  return {
    async resolve(input: ResolveInput): Promise<Resolution> {
      const problem = resolverProblem(input.config, input.agentName)
      if (problem) return { ok: false, reason: problem, files: [] }
      const picked = pickAgent(input.config, input.agentName)
      if ('error' in picked || picked.agent.kind !== 'command') return { ok: false, reason: 'no command agent', files: [] }
      const agent = { name: picked.name, agent: picked.agent }
      const branch = input.task.branch!
      const workDir = path.join(deps.dataDir, 'orchestrator', 'merge-resolve')
      let dir = await worktreeOf(git, deps.root, branch)
      const temporary = dir === null
      if (dir === null) {
        dir = path.join(workDir, input.key)
        fs.mkdirSync(workDir, { recursive: true })
        await git.run(deps.root, ['worktree', 'remove', '--force', dir])
        await git.git(deps.root, ['worktree', 'add', dir, branch])
      }
      let result: Awaited<ReturnType<typeof attempt>>
      try {
        result = await attempt(dir, input, agent, workDir)
      } finally {
        if (temporary) await git.run(deps.root, ['worktree', 'remove', '--force', dir])
      }
      // Named once the temporary worktree is gone: the branch is then checked out nowhere and `git branch -f` applies.
      return result.ok ? { ...result, undo: await undoCommand(git, deps.root, branch, result.before) } : result
    }
  }
}
export type ConflictResolver = ReturnType<typeof createConflictResolver>
