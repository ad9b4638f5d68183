/**
 * Applies a model's unified diff with `git apply` (checked first, so a bad diff changes nothing),
 * and runs one provider task end to end: scoped files → prompt → chat → diff → apply, logged.
 */
import fs from 'node:fs'
import type { EnginePlatform, TaskRunInput, Usage } from '../types.js'
import { chat, type ProviderAgent } from './client.js'
import { buildDiffPrompt, extractUnifiedDiff, readScopedFiles } from './diff-task.js'
import { ProviderError } from './errors.js'
import { createGit } from '../git.js'

export interface ApplyResult {
  applied: boolean
  reason?: string
  files: string[]
}

export async function applyDiff(workdir: string, diff: string, platform: EnginePlatform): Promise<ApplyResult> {
  const files = diffPaths(diff)
  if (files.length === 0) return { applied: false, reason: 'the diff names no files', files }
  const unsafe = files.find((file) => file.startsWith('/') || file.split('/').includes('..') || file.split('/')[0] === '.git')
  if (unsafe !== undefined) return { applied: false, reason: `the diff touches a path outside the work tree: ${unsafe}`, files }
  // Models often get hunk line counts wrong; --recount trusts the hunk bodies instead of the headers.
  const args = ['apply', '--recount', `-p${hasPrefixes(diff) ? 1 : 0}`]
  const git = createGit(platform)
  const check = await git.run(workdir, [...args, '--check', '-'], diff)
  if (check.spawnError) return { applied: false, reason: `git could not be started: ${check.spawnError}`, files }
  if (check.code !== 0) return { applied: false, reason: gitReason(check.stderr, 'git apply --check failed'), files }
  const apply = await git.run(workdir, [...args, '-'], diff)
  if (apply.code !== 0) return { applied: false, reason: gitReason(apply.stderr, 'git apply failed'), files }
  return { applied: true, files }
}

export type ProviderTaskStatus = 'applied' | 'no_diff' | 'not_applicable' | 'provider_error' | 'cancelled'

export interface ProviderTaskResult {
  status: ProviderTaskStatus
  reason: string
  /** What the provider reported (zero when the call failed); the caller reports it through onUsage. */
  usage: Usage
  /** true when a retry could succeed (provider 429/5xx/timeout/connection error). */
  transient: boolean
  filesChanged: string[]
}

export async function runProviderTask(
  input: TaskRunInput,
  agent: ProviderAgent,
  workdir: string,
  platform: EnginePlatform
): Promise<ProviderTaskResult> {
  const log = taskLogger(input.logFile, input.logCapBytes)
  const emptyUsage: Usage = { inputTokens: 0, outputTokens: 0, costUsd: null, model: agent.model }
  const files = readScopedFiles(workdir, input.task.files)
  const messages = buildDiffPrompt(input.task, files)
  log(
    `[provider] ${agent.kind} ${agent.model} at ${agent.base_url}: ` +
      `task ${input.task.key} attempt ${input.attempt}, ${files.length} file(s) in scope`
  )
  input.onHeartbeat({ status: 'EXECUTING', currentAction: `asking ${agent.model} for a diff` })

  let answer: { text: string; usage: Usage }
  try {
    const timeoutMs = agent.request_timeout_seconds ? Math.min(agent.request_timeout_seconds * 1000, input.timeoutMs) : input.timeoutMs
    answer = await chat(agent, messages, { signal: input.signal, timeoutMs }, platform)
  } catch (error) {
    if (input.signal.aborted) {
      log('[provider] cancelled')
      return { status: 'cancelled', reason: 'cancelled', usage: emptyUsage, transient: false, filesChanged: [] }
    }
    const reason = error instanceof Error ? error.message : String(error)
    const transient = error instanceof ProviderError && error.transient
    log(`[provider] call failed (${transient ? 'transient' : 'permanent'}): ${reason}`)
    return { status: 'provider_error', reason, usage: emptyUsage, transient, filesChanged: [] }
  }

  log(`[provider] answer (${answer.usage.inputTokens} in / ${answer.usage.outputTokens} out tokens):`)
  log(answer.text)
  const diff = extractUnifiedDiff(answer.text)
  if (diff === null) {
    const reason = 'the model answered without a unified diff'
    log(`[provider] ${reason}`)
    return { status: 'no_diff', reason, usage: answer.usage, transient: false, filesChanged: [] }
  }
  input.onHeartbeat({ status: 'EXECUTING', currentAction: 'applying the diff' })
  const applied = await applyDiff(workdir, diff, platform)
  if (!applied.applied) {
    const reason = `the diff does not apply: ${applied.reason ?? 'unknown reason'}`
    log(`[provider] ${reason}`)
    return { status: 'not_applicable', reason, usage: answer.usage, transient: false, filesChanged: [] }
  }
  log(`[provider] applied to ${applied.files.join(', ')}`)
  input.onHeartbeat({ status: 'EXECUTING', currentAction: 'diff applied', filesChangedCount: applied.files.length })
  return {
    status: 'applied',
    reason: `diff applied to ${applied.files.length} file(s)`,
    usage: answer.usage,
    transient: false,
    filesChanged: applied.files
  }
}

/** Paths a diff changes (new side, or old side for deletions), without a/ b/ prefixes. */
export function diffPaths(diff: string): string[] {
  const prefixed = hasPrefixes(diff)
  const paths = new Set<string>()
  let oldPath: string | null = null
  for (const line of diff.split('\n')) {
    if (line.startsWith('--- ')) oldPath = headerPath(line.slice(4), prefixed)
    else if (line.startsWith('+++ ')) {
      const newPath = headerPath(line.slice(4), prefixed)
      const chosen = newPath ?? oldPath
      if (chosen !== null) paths.add(chosen)
      oldPath = null
    } else if (line.startsWith('rename from ') || line.startsWith('rename to ')) {
      paths.add(line.replace(/^rename (from|to) /, ''))
    }
  }
  return [...paths]
}

function headerPath(raw: string, prefixed: boolean): string | null {
  const name = raw
    .split('\t')[0]!
    .trim()
    .replace(/^"(.*)"$/, '$1')
  if (name === '/dev/null') return null
  return prefixed ? name.replace(/^[ab]\//, '') : name
}

/** Whether the ---/+++ headers carry git's a/ b/ prefixes (decides -p1 or -p0). */
function hasPrefixes(diff: string): boolean {
  const headers = diff
    .split('\n')
    .filter((l) => l.startsWith('--- ') || l.startsWith('+++ '))
    .map((l) => l.slice(4).trim())
  const named = headers.filter((h) => !h.startsWith('/dev/null'))
  return named.length === 0 || named.every((h) => /^"?[ab]\//.test(h))
}

function gitReason(stderr: string, fallback: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
  return lines.length > 0 ? lines.slice(0, 6).join('; ') : fallback
}

/** Appends lines to the worker log, stopping with one marker line once the cap is reached. */
function taskLogger(file: string, capBytes: number): (text: string) => void {
  const marker = `[log capped at ${capBytes} bytes]\n`
  let capped = false
  return (text) => {
    if (capped) return
    const size = fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0
    const line = text.endsWith('\n') ? text : `${text}\n`
    const room = capBytes - size - marker.length
    if (Buffer.byteLength(line) <= room) {
      fs.appendFileSync(file, line)
      return
    }
    capped = true
    if (size < capBytes)
      fs.appendFileSync(file, Buffer.concat([Buffer.from(line).subarray(0, Math.max(0, room)), Buffer.from(`\n${marker}`)]))
  }
}
