/**
 * One attempt of one task, end to end: pick the agent, give it a workspace (a worktree of its
 * own, or the project directory watched by snapshots), run it, and only call the task DONE when
 * the agent exited 0, changed files when a change was expected, the work is committed, and the
 * check command passed. Every other ending is NO_GO (or CANCELLED) with a reason a user can act on.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { AgentConfig, ProjectConfig } from '../project/config-schema.js'
import { createClaudeStreamParser } from './agents/claude-stream-json.js'
import { resolveCommand, writePromptFile, type CommandAgentConfig } from './agents/command-agent.js'
import { buildTaskPrompt } from './agents/prompt.js'
import { allChanged, diffSnapshots, snapshotTree } from './changes.js'
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

/** The agent a task runs with, or why there is none. */
export function pickAgent(config: ProjectConfig, wanted: string | undefined): { name: string; agent: AgentConfig } | { error: string } {
  const names = Object.keys(config.agents)
  const name = wanted ?? config.default_agent ?? (names.length === 1 ? names[0] : undefined)
  const howTo =
    'add one under "agents" in .quartet/config.json ' +
    '(e.g. {"agents": {"claude": {"kind": "command", "preset": "claude"}}, "default_agent": "claude"})'
  if (name === undefined) {
    return {
      error:
        names.length === 0
          ? `no agent is configured: ${howTo}`
          : `several agents are configured (${names.join(', ')}) and none is chosen: ` +
            'set "default_agent" in .quartet/config.json or name one in the task'
    }
  }
  const agent = config.agents[name]
  if (!agent) return { error: `agent "${name}" is not configured${names.length ? ` (configured: ${names.join(', ')})` : ''}: ${howTo}` }
  return { name, agent }
}

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
      const workdir = workspace.workdir

      const based = basedOn(workspace.worktree)
      appendLog(input.logFile, `[quartet] attempt ${input.attempt}: agent ${picked.name} in ${workdir}${based}`)
      const agentStarted = Date.now()
      if (picked.agent.kind === 'command') {
        const beat = startHeartbeat(input, 'EXECUTING', `running agent ${picked.name}`)
        const run = await runCommandAgent(input, picked.name, picked.agent, workdir, beat.sawLine).finally(beat.stop)
        outcome.agentMs = Date.now() - agentStarted
        outcome.exitCode = run.process.exitCode
        // Recorded on failures too: the outcome says what work the attempt left in its workspace.
        outcome.filesChanged = await workspace.changedFiles().catch(() => [])
        if (run.usage) {
          outcome.usage = run.usage
          input.onUsage(run.usage)
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
          return end('NO_GO', `agent ${how}`, tail)
        }
        if (run.reportedError !== undefined) return end('NO_GO', `agent reported an error: ${run.reportedError}`, tail)
        outcome.logTail = tail.slice(-OUTCOME_TAIL_LINES)
      } else {
        const beat = startHeartbeat(input, 'EXECUTING', `running agent ${picked.name}`)
        const result = await runProviderTask(input, picked.agent, workdir, platform).finally(beat.stop)
        outcome.agentMs = Date.now() - agentStarted
        outcome.usage = result.usage
        input.onUsage(result.usage)
        if (input.signal.aborted || result.status === 'cancelled') return cancelled()
        if (result.status === 'not_applicable' || result.status === 'provider_error') {
          outcome.transient = result.transient
          return end('NO_GO', result.reason || 'the provider produced no applicable change')
        }
        if (result.status === 'no_diff' && input.task.expectChange) return end('NO_GO', `the provider proposed no change: ${result.reason}`)
        outcome.filesChanged = [...new Set([...result.filesChanged, ...(await workspace.changedFiles())])].sort()
      }

      if (outcome.filesChanged.length === 0 && input.task.expectChange)
        return end('NO_GO', 'agent exited 0 but changed no files', outcome.logTail)

      // Nothing changed since the base means nothing to commit: no git calls for it.
      if (workspace.worktree && config.engine.commit_changes && outcome.filesChanged.length > 0) {
        try {
          outcome.commitSha = await commitWork(workspace.worktree, input)
        } catch (error) {
          return end('NO_GO', `could not commit the agent's work (it is kept in ${workspace.worktree.path}): ${(error as Error).message}`)
        }
      }

      const check = input.task.check ?? config.check.command
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
          `${check !== undefined ? ', check passed' : ''}${based}`
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
    const prompt = buildTaskPrompt(input.task, { attempt: input.attempt })
    const promptFile = writePromptFile(dataDir, input.sprintId, input.taskId, input.attempt, prompt)
    const resolved = resolveCommand(name, agent, { prompt, promptFile, taskId: input.taskId, workdir })
    const parser = resolved.output === 'claude-stream-json' ? createClaudeStreamParser() : undefined
    const run = await runProcess(
      {
        command: resolved.command,
        args: resolved.args,
        cwd: workdir,
        env: { ...process.env, ...agent.env, QUARTET_TASK_ID: input.taskId, QUARTET_SPRINT_ID: input.sprintId },
        logFile: input.logFile,
        logCapBytes: input.logCapBytes,
        timeoutMs: input.timeoutMs,
        killGraceMs,
        signal: input.signal,
        onStart: (pid) => input.onProcess(pid),
        onLine: (line) => {
          if (!parser) return onLine(line)
          parser.onLine(line)
          onLine(parser.activity())
        }
      },
      platform
    )
    const result = parser?.result()
    return {
      command: resolved.command,
      process: run,
      usage: result?.usage,
      reportedError: result?.isError ? result.text || 'error result' : undefined
    }
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
