/**
 * The agent catalog (`GET /api/agents`) and the routing distribution (`GET /api/routing/distribution`):
 * configured agents joined with what their attempts really did.
 */
import { commandTemplate } from '../../engine/agents/command-agent.js'
import type { ProjectConfigResult } from '../../project/config.js'
import type { AgentConfig } from '../../project/config-schema.js'
import { findExecutable } from '../../../../core/cli/self-command.js'
import type { AttemptFact } from '../../state/insight.repository.js'
import { median, microToUsd, roundTo } from './stats.js'

export interface AgentUsage {
  attempts: number
  done: number
  noGo: number
  cancelled: number
  inputTokens: number
  outputTokens: number
  costUsd: number
  medianAgentMs: number | null
}

export interface AgentView {
  id: string
  name: string
  source: 'config' | 'history'
  enabled: boolean
  totalUses: number
  /** DONE attempts / finished attempts (0..1), null before any attempt finished. */
  successRate: number | null
  validity: 'valid' | 'invalid'
  routable: boolean
  provenance: { file: string | null; key: string | null; default: boolean }
  prompt: string | null
  diagnostics: string[]
  kind: string | null
  usage: AgentUsage
}

export interface DistributionView {
  agents: { entries: Array<{ id: string; tasks: number; pct: number }>; total: number }
  skills: { entries: Array<{ id: string; tasks: number; pct: number }>; total: number }
  warnings: string[]
  totalOutcomes: number
}

export const IMBALANCE_THRESHOLD_PCT = 80
const FINISHED = new Set(['DONE', 'NO_GO', 'CANCELLED', 'ORPHANED'])

export function usageByAgent(attempts: readonly AttemptFact[]): Map<string, AgentUsage> {
  const byAgent = new Map<string, { usage: AgentUsage; agentMs: number[]; costMicro: number }>()
  for (const attempt of attempts) {
    let entry = byAgent.get(attempt.agent)
    if (!entry) {
      entry = {
        usage: { attempts: 0, done: 0, noGo: 0, cancelled: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, medianAgentMs: null },
        agentMs: [],
        costMicro: 0
      }
      byAgent.set(attempt.agent, entry)
    }
    const usage = entry.usage
    usage.attempts++
    if (attempt.status === 'DONE') usage.done++
    if (attempt.status === 'NO_GO') usage.noGo++
    if (attempt.status === 'CANCELLED' || attempt.status === 'ORPHANED') usage.cancelled++
    usage.inputTokens += attempt.inputTokens
    usage.outputTokens += attempt.outputTokens
    entry.costMicro += attempt.costMicroUsd ?? 0
    if (attempt.agentMs !== null) entry.agentMs.push(attempt.agentMs)
  }
  return new Map(
    [...byAgent].map(([agent, entry]) => [
      agent,
      { ...entry.usage, costUsd: microToUsd(entry.costMicro), medianAgentMs: median(entry.agentMs) }
    ])
  )
}

function finishedCount(attempts: readonly AttemptFact[], agent: string): number {
  return attempts.filter((a) => a.agent === agent && FINISHED.has(a.status)).length
}

function describeAgent(
  name: string,
  agent: AgentConfig,
  root: string,
  env: Record<string, string | undefined>
): { prompt: string | null; diagnostics: string[]; runnable: boolean } {
  if (agent.kind !== 'command') {
    return {
      prompt: null,
      diagnostics: [`${agent.kind} model ${agent.model} at ${agent.base_url} (reachability: GET /api/doctor)`],
      runnable: true
    }
  }
  try {
    const template = commandTemplate(name, agent)
    const program = template.argv[0]!
    const found = findExecutable(program, env, root)
    return {
      prompt: template.argv.join(' '),
      diagnostics: [found ? `${program} → ${found}` : `${program} is not on PATH`, `output: ${template.output}`],
      runnable: found !== null
    }
  } catch (error) {
    return { prompt: null, diagnostics: [(error as Error).message], runnable: false }
  }
}

export function listAgents(input: {
  configResult: ProjectConfigResult
  attempts: readonly AttemptFact[]
  root: string
  env: Record<string, string | undefined>
}): AgentView[] {
  const { config, errors } = input.configResult
  const usage = usageByAgent(input.attempts)
  const names = Object.keys(config.agents)
  const defaultAgent = config.default_agent ?? (names.length === 1 ? names[0] : undefined)
  const empty: AgentUsage = {
    attempts: 0,
    done: 0,
    noGo: 0,
    cancelled: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    medianAgentMs: null
  }

  const view = (name: string, agent: AgentConfig | undefined): AgentView => {
    const used = usage.get(name) ?? empty
    const finished = finishedCount(input.attempts, name)
    const agentErrors = errors
      .filter((e) => e.path === `agents.${name}` || e.path.startsWith(`agents.${name}.`))
      .map((e) => `${e.path}: ${e.message}`)
    const described = agent
      ? describeAgent(name, agent, input.root, input.env)
      : { prompt: null, diagnostics: ['no longer configured: seen in recorded attempts only'], runnable: false }
    const valid = agent !== undefined && agentErrors.length === 0
    return {
      id: name,
      name,
      source: agent ? 'config' : 'history',
      enabled: agent !== undefined,
      totalUses: used.attempts,
      successRate: finished === 0 ? null : roundTo(used.done / finished, 3),
      validity: valid ? 'valid' : 'invalid',
      routable: valid && described.runnable,
      provenance: { file: agent ? '.quartet/config.json' : null, key: agent ? `agents.${name}` : null, default: name === defaultAgent },
      prompt: described.prompt,
      diagnostics: [...agentErrors, ...described.diagnostics],
      kind: agent?.kind ?? null,
      usage: used
    }
  }

  const configured = names.map((name) => view(name, config.agents[name]))
  const historical = [...usage.keys()]
    .filter((name) => !names.includes(name))
    .sort()
    .map((name) => view(name, undefined))
  return [...configured, ...historical]
}

/**
 * Share of recorded attempts per agent (every attempt is one routing decision, a retry too); an
 * agent above the threshold is called out. totalOutcomes counts the attempts that have ended.
 */
export function routingDistribution(attempts: readonly AttemptFact[]): DistributionView {
  const counts = new Map<string, number>()
  for (const attempt of attempts) counts.set(attempt.agent, (counts.get(attempt.agent) ?? 0) + 1)
  const total = attempts.length
  const entries = [...counts]
    .map(([id, tasks]) => ({ id, tasks, pct: roundTo((tasks / total) * 100, 1) }))
    .sort((a, b) => b.pct - a.pct || b.tasks - a.tasks || a.id.localeCompare(b.id))
  const warnings = entries
    .filter((entry) => entry.pct > IMBALANCE_THRESHOLD_PCT)
    .map((entry) => `IMBALANCE: "${entry.id}" dominates with ${entry.pct}% (threshold: ${IMBALANCE_THRESHOLD_PCT}%)`)
  // Quartet routes by agent only; skills stay an honest empty list until tasks carry skills.
  const totalOutcomes = attempts.filter((a) => FINISHED.has(a.status)).length
  return { agents: { entries, total }, skills: { entries: [], total: 0 }, warnings, totalOutcomes }
}
