/**
 * Cross-verify (seed 000's rule): a claim — a task's result, or a text — is checked by a provider
 * DIFFERENT from its author's, read-only, on the evidence and the diff. The chain is immutable
 * canonical-JSON files: claim → manifest → settlement → verdict receipt. Only the whole chain
 * closes a claim: a genuine CONFIRMED verdict from an actual provider call that reported usage,
 * a closed settlement and a durable receipt `cross-verify-verdict:sha256:<digest>`. REFUTED is
 * settled but closes nothing; UNCLEAR and HOLD (no verdict line, no usage, a failed call) never
 * close. See docs/orchestrator.md#cross-verify.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { chat, type ProviderAgent } from '../../engine/providers/client.js'
import type { EnginePlatform } from '../../engine/types.js'
import { orchestratorError } from '../../errors.js'
import type { AgentConfig, ProjectConfig } from '../../project/config-schema.js'
import { sealed, sha256Hex, writeImmutable } from './canonical.js'
import { captureEvidence, EVIDENCE_LIMITS } from './evidence.js'

export const RECEIPT_PREFIX = 'cross-verify-verdict:sha256:'
const MAX_PROMPT_EVIDENCE = 200_000

export type Verdict = 'CONFIRMED' | 'REFUTED' | 'UNCLEAR'

export interface XverifyTask {
  id: string
  title: string
  description: string
  goCriteria: string[]
  agent: string | null
  commitSha: string | null
  filesChanged: string[]
  worktree: string | null
}

export interface XverifyInput {
  taskId?: string
  claim?: string
  author?: string
  verifier?: string
  evidence?: string[]
}

export type XverifyResult =
  | { outcome: 'skipped'; reason: string; author: { agent: string; provider: string } }
  | {
      outcome: 'confirmed' | 'refuted' | 'unclear' | 'hold'
      closed: boolean
      reason: string
      author: { agent: string; provider: string }
      verifier: { agent: string; provider: string; model: string }
      dir: string
      claimRef: string
      manifestRef: string
      settlementState: 'closed' | 'held'
      receiptRef: string | null
    }

export interface XverifyDeps {
  projectRoot: string
  dataDir: string
  config: () => ProjectConfig
  platform: EnginePlatform
  env: Record<string, string | undefined>
  lookupTask(id: string): Promise<XverifyTask | undefined>
  readDiff(commit: string): Promise<string>
}

/** Who actually answers: the CLI for command agents, the endpoint for provider agents. */
export function providerOf(agent: AgentConfig): string {
  if (agent.kind === 'command') return agent.preset ?? path.basename(agent.argv?.[0] ?? 'command')
  const url = new URL(agent.base_url)
  return `${agent.kind}:${url.host}${url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')}`
}

/** The last non-empty line, when it is `VERDICT: CONFIRMED|REFUTED|UNCLEAR <reason>`. */
export function parseVerdict(output: string): { verdict: Verdict; reason: string } | null {
  const last = output.trimEnd().split('\n').at(-1)?.trim() ?? ''
  const match = /^VERDICT:\s*(CONFIRMED|REFUTED|UNCLEAR)\b\s*(.*)$/.exec(last)
  return match ? { verdict: match[1] as Verdict, reason: (match[2] as string).trim() } : null
}

export function xverifyRoot(dataDir: string): string {
  return path.join(dataDir, 'orchestrator', 'xverify')
}

export function createXverifyService(deps: XverifyDeps) {
  function agentNamed(config: ProjectConfig, name: string, role: string): AgentConfig {
    const agent = config.agents[name]
    if (!agent)
      throw orchestratorError(
        'BAD_REQUEST',
        `the ${role} "${name}" is not a configured agent (configured: ${Object.keys(config.agents).join(', ') || 'none'})`
      )
    return agent
  }

  function chooseVerifier(
    config: ProjectConfig,
    authorProvider: string,
    explicit: string | undefined
  ): { name: string; agent: ProviderAgent } | null {
    if (explicit !== undefined) {
      const agent = agentNamed(config, explicit, 'verifier')
      if (providerOf(agent) === authorProvider) {
        throw orchestratorError(
          'BAD_REQUEST',
          `same-provider self-verification is forbidden: the verifier "${explicit}" and the author both use ${authorProvider}`
        )
      }
      if (agent.kind === 'command')
        throw orchestratorError(
          'BAD_REQUEST',
          `the verifier "${explicit}" is a command agent; a verifier must be a provider agent (it runs read-only)`
        )
      return { name: explicit, agent }
    }
    const order = config.cross_verify.verifier_priority ?? Object.keys(config.agents)
    for (const name of order) {
      const agent = config.agents[name]
      if (agent && agent.kind !== 'command' && providerOf(agent) !== authorProvider) return { name, agent }
    }
    return null
  }

  function prompt(claim: string, diff: string, contents: Map<string, Buffer>): string {
    let evidence = ''
    for (const [file, content] of contents) evidence += `--- ${file}\n${content.toString('utf8')}\n`
    const bounded = (text: string) => (text.length > MAX_PROMPT_EVIDENCE ? `${text.slice(0, MAX_PROMPT_EVIDENCE)}\n[… truncated]` : text)
    return [
      `CLAIM:\n${claim}`,
      `DIFF:\n${diff ? bounded(diff) : '(none)'}`,
      `EVIDENCE FILES:\n${evidence ? bounded(evidence) : '(none)'}`,
      'Check the claim against the diff and the evidence only. End your answer with one line:',
      'VERDICT: CONFIRMED <reason> | VERDICT: REFUTED <reason> | VERDICT: UNCLEAR <reason>'
    ].join('\n\n')
  }

  return {
    async run(input: XverifyInput): Promise<XverifyResult> {
      if ((input.taskId === undefined) === (input.claim === undefined))
        throw orchestratorError('BAD_REQUEST', 'name a task or give --claim <text> (one of them)')
      const config = deps.config()
      const task = input.taskId !== undefined ? await deps.lookupTask(input.taskId) : undefined
      if (input.taskId !== undefined && !task) throw orchestratorError('ORCH_TASK_NOT_FOUND', `task ${input.taskId} not found`)
      const authorName = input.author ?? task?.agent ?? config.default_agent
      if (authorName === undefined) throw orchestratorError('BAD_REQUEST', 'the author is unknown: name it with --author <agent>')
      const authorAgent = agentNamed(config, authorName, 'author')
      const author = { agent: authorName, provider: providerOf(authorAgent) }
      const chosen = chooseVerifier(config, author.provider, input.verifier)
      if (!chosen) {
        return {
          outcome: 'skipped',
          author,
          reason:
            `no-second-provider: every configured provider agent uses the author's provider ${author.provider}; ` +
            'add a provider agent of another provider to verify'
        }
      }
      const verifier = { agent: chosen.name, provider: providerOf(chosen.agent), model: chosen.agent.model }

      const attemptId = `${Date.now()}-${randomBytes(4).toString('hex')}`
      const dir = path.join(xverifyRoot(deps.dataDir), attemptId)
      const root = task?.worktree && fs.statSync(task.worktree, { throwIfNoEntry: false })?.isDirectory() ? task.worktree : deps.projectRoot
      const { files, contents } = captureEvidence(root, input.evidence ?? task?.filesChanged ?? [], dir)
      const diff = task?.commitSha ? await deps.readDiff(task.commitSha) : ''
      const diffRecord = diff ? { sha256: sha256Hex(diff), bytes: Buffer.byteLength(diff) } : null
      if (diff) writeImmutable(path.join(dir, 'blobs', diffRecord!.sha256), diff)
      const claimText =
        input.claim ?? [task!.title, task!.description, ...task!.goCriteria.map((c) => `GO: ${c}`)].filter(Boolean).join('\n')

      const claim = {
        kind: 'cross-verify-evidence-claim',
        brokerVersion: 1,
        attemptId,
        taskId: task?.id ?? null,
        claim: claimText,
        author,
        relativePaths: files.map((f) => f.path),
        limits: EVIDENCE_LIMITS,
        projectRootSha256: sha256Hex(deps.projectRoot),
        claimedAt: deps.platform.clock().toISOString()
      }
      const claimFile = sealed('claimSha256', 'claim', claim)
      writeImmutable(path.join(dir, 'claim.json'), claimFile.text)
      const manifest = { kind: 'cross-verify-evidence-manifest', brokerVersion: 1, claimSha256: claimFile.digest, files, diff: diffRecord }
      const manifestFile = sealed('manifestSha256', 'manifest', manifest)
      writeImmutable(path.join(dir, 'manifest.json'), manifestFile.text)

      const transitions: { state: string; at: string }[] = [{ state: 'claimed', at: claim.claimedAt }]
      const mark = (state: string) => transitions.push({ state, at: deps.platform.clock().toISOString() })
      let output = ''
      let usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 }
      let failure: string | null = null
      mark('dispatched')
      try {
        const result = await chat(
          chosen.agent,
          [
            { role: 'system', content: 'You are a read-only verifier. You cannot run or change anything; judge only what you are shown.' },
            { role: 'user', content: prompt(claimText, diff, contents) }
          ],
          { env: deps.env },
          deps.platform
        )
        output = result.text
        usage = {
          inputTokens: result.usage.inputTokens,
          outputTokens: result.usage.outputTokens,
          totalTokens: result.usage.inputTokens + result.usage.outputTokens
        }
        mark('provider-actual-call')
      } catch (error) {
        failure = `the verifier call failed: ${(error as Error).message}`
      }
      const outputSha256 = sha256Hex(output)
      writeImmutable(path.join(dir, 'blobs', outputSha256), output)
      const parsed = failure ? null : parseVerdict(output)
      const usageReported = usage.totalTokens > 0
      if (usageReported) mark('provider-terminal-usage')
      const terminal = parsed !== null && parsed.verdict !== 'UNCLEAR' && usageReported
      const reason =
        failure ??
        (parsed === null
          ? 'HOLD: the verifier gave no VERDICT line'
          : !usageReported
            ? 'HOLD: the provider reported no usage'
            : parsed.reason || parsed.verdict)
      mark(terminal ? 'closed' : 'held')
      const settlement = {
        kind: 'cross-verify-settlement',
        brokerVersion: 1,
        attemptId,
        claimSha256: claimFile.digest,
        manifestSha256: manifestFile.digest,
        state: terminal ? 'closed' : 'held',
        transitions,
        verifier,
        usage,
        effectiveVerdict: parsed && usageReported ? parsed.verdict : null,
        reason,
        outputSha256,
        outputByteLength: Buffer.byteLength(output)
      }
      const settlementFile = sealed('settlementSha256', 'settlement', settlement)
      writeImmutable(path.join(dir, 'settlement.json'), settlementFile.text)

      let receiptRef: string | null = null
      if (terminal && parsed.verdict === 'CONFIRMED') {
        const receipt = {
          kind: 'cross-verify-verdict-receipt',
          brokerVersion: 1,
          state: 'host-adjudicated',
          attemptId,
          taskId: task?.id ?? null,
          claimSha256: claimFile.digest,
          evidenceManifestSha256: manifestFile.digest,
          settlementSha256: settlementFile.digest,
          effectiveVerdict: 'CONFIRMED',
          disposition: 'allow',
          reason,
          author,
          verifier,
          usage,
          outputSha256,
          outputByteLength: settlement.outputByteLength
        }
        const receiptFile = sealed('verdictReceiptSha256', 'receipt', receipt)
        writeImmutable(path.join(dir, 'verdict.json'), receiptFile.text)
        receiptRef = `${RECEIPT_PREFIX}${receiptFile.digest}`
      }
      const outcome =
        failure || parsed === null || !usageReported ? 'hold' : (parsed.verdict.toLowerCase() as 'confirmed' | 'refuted' | 'unclear')
      return {
        outcome,
        closed: receiptRef !== null,
        reason,
        author,
        verifier,
        dir,
        claimRef: `cross-verify-evidence-claim:sha256:${claimFile.digest}`,
        manifestRef: `cross-verify-evidence-manifest:sha256:${manifestFile.digest}`,
        settlementState: terminal ? 'closed' : 'held',
        receiptRef
      }
    }
  }
}

export type XverifyService = ReturnType<typeof createXverifyService>
