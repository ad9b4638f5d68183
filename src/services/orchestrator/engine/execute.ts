/**
 * One attempt of one task, end to end: pick the agent, give it a workspace (a worktree of its
 * own, or the project directory watched by snapshots), run it, and only call the task DONE when
 * the agent exited 0, changed files when a change was expected, the work is committed, and the
 * check command passed. Every other ending is NO_GO (or CANCELLED) with a reason a user can act on.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { AgentConfig, ProjectConfig } from '../project/config-schema.js'
import { permissionsOf, resolveCommand, writePromptFile, type CommandAgentConfig } from './agents/command-agent.js'
import type { AgentReport } from './agents/driver.js'
import { buildTaskPrompt } from './agents/prompt.js'
import { launchContext } from './agents/quartet-command.js'
import { pickAgent } from './pick-agent.js'
import { allChanged, diffSnapshots, snapshotTree } from './changes.js'
import { clearCheckpoint, readCheckpoint, writeCheckpoint } from './checkpoint.js'
import { runProcess, type RunProcessResult } from './process-group.js'
import type { CheckCommand, EnginePlatform, ExecuteTask, TaskRunInput, TaskRunOutcome, Usage } from './types.js'
import type { GitWorktrees, PreparedWorktree } from './worktrees.js'

export type ProviderAgentConfig = Exclude<AgentConfig, { kind: 'command' }>

export interface ProviderTaskResult {
  status: 'applied' | 'no_diff' | 'not_applicable' | 'provider_error' | 'cancelled'
  reason: string
  usage: Usage
  transient: boolean
  filesChanged: string[]
}

export type RunProviderTask = (
  input: TaskRunInput,
  agent: ProviderAgentConfig,
  workdir: string,
  platform: EnginePlatform
) => Promise<ProviderTaskResult>

export interface ExecutorDeps {
  platform: EnginePlatform
  config: ProjectConfig
  /** Where prompt files are written (never inside the worktree). */
  dataDir: string
  runProviderTask: RunProviderTask
  /** The project's task worktrees (engine/worktrees.ts over the git port). */
  worktrees: GitWorktrees
  /** How often a running agent or check is reported alive (default 15 s; readers call a heartbeat stale after 120 s). */
  heartbeatIntervalMs?: number
}

const REASON_TAIL_LINES = 10
const OUTCOME_TAIL_LINES = 50

export function createExecutor({
  platform,
  config,
  dataDir,
  runProviderTask,
  worktrees,
  heartbeatIntervalMs = 15000
}: ExecutorDeps): ExecuteTask {
  // Whether the project is a repository, and where in it, does not change during a run: asked once per root.
  const repoFacts = new Map<string, Promise<{ isRepo: boolean; prefix: string }>>()
  const factsOf = (root: string) => {
    const facts =
      repoFacts.get(root) ??
      (async () => {
        const isRepo = await worktrees.isGitRepo(root)
        return { isRepo, prefix: isRepo ? await worktrees.repoPrefix(root) : '' }
      })()
    repoFacts.set(root, facts)
    void facts.catch(() => repoFacts.delete(root))
    return facts
  }
  const killGraceMs = Math.round(config.engine.kill_grace_seconds * 1000)

  return async function executeTask(input: TaskRunInput): Promise<TaskRunOutcome> {
    const outcome: TaskRunOutcome = {
      status: 'NO_GO',
      reason: '',
      transient: false,
      exitCode: null,
      filesChanged: [],
      commitSha: null,
      branch: null,
      worktree: null,
      usage: { inputTokens: 0, outputTokens: 0, costUsd: null },
      logTail: [],
      agentMs: 0
    }
    const end = (status: TaskRunOutcome['status'], reason: string, tail: string[] = []): TaskRunOutcome => {
      outcome.status = status
      // A kill keeps the checkpoint: the resumed attempt then runs only the check again.
      if (status !== 'CANCELLED') clearCheckpoint(input.logFile)
      outcome.reason = tail.length ? `${reason}\n${tail.slice(-REASON_TAIL_LINES).join('\n')}` : reason
      if (tail.length) outcome.logTail = tail.slice(-OUTCOME_TAIL_LINES)
      return outcome
    }
    const cancelled = () => end('CANCELLED', 'cancelled while running')

    try {
      const picked = pickAgent(config, input.task.agent)
      if ('error' in picked) return end('NO_GO', picked.error)
      if (input.signal.aborted) return cancelled()

      const workspace = await openWorkspace(input)
      if ('error' in workspace) return end('NO_GO', workspace.error)
      outcome.worktree = workspace.worktree?.path ?? null
      outcome.branch = workspace.worktree?.branch ?? null
      if (workspace.worktree) await input.onWorkspace?.({ branch: workspace.worktree.branch, worktree: workspace.worktree.path })
      const workdir = workspace.workdir

      const based = basedOn(workspace.worktree)
      appendLog(input.logFile, `[quartet] attempt ${input.attempt}: agent ${picked.name} in ${workdir}${based}`)
      const agentStarted = Date.now()
      const checkpoint = workspace.worktree ? await validCheckpoint(input, workspace.worktree) : null
      let denials: string[] = []
      if (checkpoint) {
        appendLog(
          input.logFile,
          `[quartet] attempt ${input.attempt}: the agent finished in attempt ${checkpoint.attempt}, ` +
            `its work is committed at ${checkpoint.commitSha.slice(0, 12)}: running only the check`
        )
        outcome.commitSha = checkpoint.commitSha
        outcome.filesChanged = checkpoint.filesChanged
      } else if (picked.agent.kind === 'command') {
        const beat = startHeartbeat(input, 'EXECUTING', `running agent ${picked.name}`)
        const run = await runCommandAgent(input, picked.name, picked.agent, workdir, beat.sawLine).finally(beat.stop)
        outcome.agentMs = Date.now() - agentStarted
        outcome.exitCode = run.process.exitCode
        // Recorded on failures too: the outcome says what work the attempt left in its workspace.
        outcome.filesChanged = await workspace.changedFiles().catch(() => [])
        if (run.report.usage) {
          outcome.usage = run.report.usage
          input.onUsage(run.report.usage, { final: true })
        }
        const tail = run.process.tail
        if (run.process.aborted || input.signal.aborted) return end('CANCELLED', 'cancelled while the agent was running', tail)
        if (run.process.spawnError)
          return end('NO_GO', `agent ${picked.name} could not be started (${run.command}): ${run.process.spawnError}`)
        if (run.process.timedOut)
          return end('NO_GO', `timed out after ${Math.round(input.timeoutMs / 1000)}s (engine.task_timeout_seconds)`, tail)
        if (run.process.exitCode !== 0) {
          const how =
            run.process.exitCode === null ? `was killed by ${run.process.signal ?? 'a signal'}` : `exited with code ${run.process.exitCode}`
          return end('NO_GO', `agent ${how}${agentSaid(run.report)}`, tail)
        }
        if (run.report.error !== undefined) return end('NO_GO', `agent reported an error: ${run.report.error}${refused(run.report)}`, tail)
        denials = run.report.denials
        outcome.logTail = tail.slice(-OUTCOME_TAIL_LINES)
      } else {
        const beat = startHeartbeat(input, 'EXECUTING', `running agent ${picked.name}`)
        const result = await runProviderTask(input, picked.agent, workdir, platform).finally(beat.stop)
        outcome.agentMs = Date.now() - agentStarted
        outcome.usage = result.usage
        input.onUsage(result.usage, { final: true })
        if (input.signal.aborted || result.status === 'cancelled') return cancelled()
        if (result.status === 'not_applicable' || result.status === 'provider_error') {
          outcome.transient = result.transient
          return end('NO_GO', result.reason || 'the provider produced no applicable change')
        }
        if (result.status === 'no_diff' && input.task.expectChange) return end('NO_GO', `the provider proposed no change: ${result.reason}`)
        outcome.filesChanged = [...new Set([...result.filesChanged, ...(await workspace.changedFiles())])].sort()
      }

      if (outcome.filesChanged.length === 0 && input.task.expectChange)
        return end('NO_GO', `agent exited 0 but changed no files${refused({ denials })}`, outcome.logTail)

      // Nothing changed since the base means nothing to commit: no git calls for it.
      const check = input.task.check ?? config.check.command
      if (!checkpoint && workspace.worktree && config.engine.commit_changes && outcome.filesChanged.length > 0) {
        try {
          outcome.commitSha = await commitWork(workspace.worktree, input)
        } catch (error) {
          return end('NO_GO', `could not commit the agent's work (it is kept in ${workspace.worktree.path}): ${(error as Error).message}`)
        }
        if (outcome.commitSha && check !== undefined) recordCheckpoint(input, workspace.worktree, outcome)
      }

      if (check !== undefined) {
        const beat = startHeartbeat(input, 'TESTING', 'running the check command', outcome.filesChanged.length)
        const result = await runCheck(input, check, workdir, beat.sawLine).finally(beat.stop)
        if (result.aborted || input.signal.aborted) return end('CANCELLED', 'cancelled while the check command was running', result.tail)
        if (result.spawnError) return end('NO_GO', `check command could not be started: ${result.spawnError}`)
        if (result.timedOut)
          return end(
            'NO_GO',
            `check command timed out after ${config.check.timeout_seconds}s (check.timeout_seconds): ${checkText(check)}`,
            result.tail
          )
        if (result.exitCode !== 0)
          return end('NO_GO', `check command failed (exit ${result.exitCode ?? result.signal}): ${checkText(check)}`, result.tail)
      }
      const files = `${outcome.filesChanged.length} file${outcome.filesChanged.length === 1 ? '' : 's'} changed`
      return end(
        'DONE',
        `agent exited 0, ${files}${outcome.commitSha ? `, committed ${outcome.commitSha.slice(0, 12)}` : ''}` +
          `${check !== undefined ? ', check passed' : ''}${checkpoint ? ` (agent work of attempt ${checkpoint.attempt})` : ''}${based}`
      )
    } catch (error) {
      if (input.signal.aborted) return cancelled()
      return end('NO_GO', `executor error: ${(error as Error).message}`)
    }
  }

  async function openWorkspace(
    input: TaskRunInput
  ): Promise<{ workdir: string; worktree: PreparedWorktree | null; changedFiles(): Promise<string[]> } | { error: string }> {
    const facts = config.engine.use_worktrees ? await factsOf(input.projectRoot) : undefined
    if (facts?.isRepo) {
      try {
        const worktree = await worktrees.prepareWorktree(
          input.projectRoot,
          input.sprintId,
          input.taskId,
          path.join(input.projectRoot, '.quartet', 'worktrees'),
          input.baseBranches
        )
        // A project inside a larger repository works in the same subdirectory of its worktree.
        const workdir = path.join(worktree.path, facts.prefix)
        return { workdir, worktree, changedFiles: () => worktrees.changedFiles(worktree.path, worktree.baseSha) }
      } catch (error) {
        return { error: `could not prepare the task's worktree: ${(error as Error).message}` }
      }
    }
    // Without a worktree the agent works in the project itself; nothing is committed there,
    // because the user's own uncommitted work would be swept into the commit.
    const before = await snapshotTree(input.projectRoot)
    return {
      workdir: input.projectRoot,
      worktree: null,
      changedFiles: async () => allChanged(diffSnapshots(before, await snapshotTree(input.projectRoot)))
    }
  }

  /** Beats now and then every interval until stopped; the latest output line says what is going on. */
  function startHeartbeat(input: TaskRunInput, status: 'EXECUTING' | 'TESTING', action: string, filesChangedCount?: number) {
    let lastLine = ''
    const beat = () =>
      input.onHeartbeat({
        status,
        currentAction: lastLine ? `${action}: ${lastLine.slice(0, 200)}` : action,
        ...(filesChangedCount !== undefined ? { filesChangedCount } : {})
      })
    beat()
    const timer = setInterval(beat, heartbeatIntervalMs)
    return {
      sawLine: (line: string) => {
        if (line.trim() !== '') lastLine = line.trim()
      },
      stop: () => clearInterval(timer)
    }
  }

  async function runCommandAgent(
    input: TaskRunInput,
    name: string,
    agent: CommandAgentConfig,
    workdir: string,
    onLine: (line: string) => void
  ) {
    const prompt = buildTaskPrompt(input.task, {
      attempt: input.attempt,
      ...(input.sprintContext ? { sprintContext: input.sprintContext } : {}),
      ...(input.previous ? { previousReason: input.previous.reason, previousLogTail: input.previous.logTail } : {})
    })
    const promptFile = writePromptFile(dataDir, input.sprintId, input.taskId, input.attempt, prompt)
    const env: Record<string, string | undefined> = { ...process.env, ...agent.env }
    const context = launchContext(input.projectRoot, { taskId: input.taskId, sprintId: input.sprintId }, env)
    const resolved = resolveCommand(name, agent, { prompt, promptFile, taskId: input.taskId, workdir }, context)
    appendLog(input.logFile, `[quartet] permissions: ${agent.argv ? 'as the configured argv sets them' : permissionsOf(agent)}`)
    const reader = resolved.reader()
    const run = await runProcess(
      {
        command: resolved.command,
        args: resolved.args,
        cwd: workdir,
        env: { ...env, ...resolved.env, QUARTET_TASK_ID: input.taskId, QUARTET_SPRINT_ID: input.sprintId },
        logFile: input.logFile,
        logCapBytes: input.logCapBytes,
        timeoutMs: input.timeoutMs,
        killGraceMs,
        signal: input.signal,
        onStart: (pid) => input.onProcess(pid),
        onLine: (line) => {
          reader.onLine(line)
          onLine(reader.activity())
        }
      },
      platform
    )
    return { command: resolved.command, process: run, report: reader.report() }
  }

  /** The checkpoint of an earlier attempt, when the worktree still holds exactly its commit and nothing else. */
  async function validCheckpoint(input: TaskRunInput, worktree: PreparedWorktree) {
    const checkpoint = readCheckpoint(input.logFile, input.taskId)
    if (!checkpoint || checkpoint.branch !== worktree.branch) return null
    const status = await worktrees.worktreeStatus(worktree.path)
    if (status.head === checkpoint.commitSha && status.clean) return checkpoint
    clearCheckpoint(input.logFile)
    return null
  }

  function recordCheckpoint(input: TaskRunInput, worktree: PreparedWorktree, done: TaskRunOutcome): void {
    writeCheckpoint(input.logFile, {
      taskId: input.taskId,
      attempt: input.attempt,
      commitSha: done.commitSha!,
      branch: worktree.branch,
      filesChanged: done.filesChanged,
      agentMs: done.agentMs,
      recordedAt: new Date().toISOString()
    })
    appendLog(input.logFile, `[quartet] checkpoint: agent finished, work committed at ${done.commitSha!.slice(0, 12)}`)
  }

  async function commitWork(worktree: PreparedWorktree, input: TaskRunInput): Promise<string | null> {
    const created = await worktrees.commitAll(worktree.path, `${input.task.title}\n\nquartet-task: ${input.taskId}`)
    if (created) return created
    // Nothing new to commit: the agent may have committed itself, or an earlier attempt did.
    const status = await worktrees.worktreeStatus(worktree.path)
    return status.head && status.head !== worktree.baseSha ? status.head : null
  }

  function runCheck(input: TaskRunInput, check: CheckCommand, workdir: string, onLine: (line: string) => void): Promise<RunProcessResult> {
    const [command, ...args] = typeof check === 'string' ? ['/bin/sh', '-c', check] : check
    appendLog(input.logFile, `[quartet] check: ${checkText(check)}`)
    return runProcess(
      {
        command: command ?? '/bin/sh',
        args,
        cwd: workdir,
        env: { ...process.env, QUARTET_TASK_ID: input.taskId, QUARTET_SPRINT_ID: input.sprintId },
        logFile: input.logFile,
        logCapBytes: input.logCapBytes,
        timeoutMs: config.check.timeout_seconds * 1000,
        killGraceMs,
        signal: input.signal,
        onStart: (pid) => input.onProcess(pid),
        onLine
      },
      platform
    )
  }
}

/** The agent's own error, as a NO_GO reason's tail. */
function agentSaid(report: AgentReport): string {
  return `${report.error ? `: ${report.error}` : ''}${refused(report)}`
}

/** The tool calls the agent's posture refused, named in a NO_GO reason (at most three). */
function refused(report: Pick<AgentReport, 'denials'>): string {
  const { denials } = report
  if (denials.length === 0) return ''
  const more = denials.length > 3 ? ` and ${denials.length - 3} more` : ''
  return `; permission denied for ${denials.slice(0, 3).join('; ')}${more} (see "permissions" in docs/orchestrator-agents.md)`
}

/** Where the attempt's branch came from, for the log and the reason. */
function basedOn(worktree: PreparedWorktree | null): string {
  if (!worktree) return ''
  if (worktree.reused) return ` (continuing ${worktree.branch} from ${worktree.baseSha.slice(0, 12)})`
  return worktree.baseBranches.length
    ? ` (based on ${worktree.baseBranches.join(' + ')})`
    : ` (based on HEAD ${worktree.baseSha.slice(0, 12)})`
}

function appendLog(logFile: string, line: string): void {
  fs.mkdirSync(path.dirname(logFile), { recursive: true })
  fs.appendFileSync(logFile, `${line}\n`)
}

/** The check command as its reason names it (an argv joined), cut to one readable line. */
function checkText(check: CheckCommand): string {
  const text = typeof check === 'string' ? check : check.join(' ')
  return text.length > 200 ? `${text.slice(0, 199)}…` : text
}
