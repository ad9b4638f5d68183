/**
 * Turns DIRECTIVES.md into a plan: `structured` reads `## Task N:` blocks, `ai` asks the planner
 * provider agent, `auto` uses the provider when one is configured and answers, else the blocks.
 * Which mode ran, and why, is in the warnings.
 */
import type { ProjectConfig } from '../../project/config-schema.js'
import { probe, type ProviderAgent } from '../providers/client.js'
import { ProviderError } from '../providers/errors.js'
import type { EnginePlatform, Plan, Usage } from '../types.js'
import { planWithAi } from './ai.js'
import { PlanError } from './errors.js'
import { parseDirectives } from './structured.js'

export { PlanError } from './errors.js'

export interface PlanSprintInput {
  mode: 'auto' | 'structured' | 'ai'
  directives: string
  config: ProjectConfig
  platform: EnginePlatform
  signal?: AbortSignal
  env?: Record<string, string | undefined>
}

export interface PlanSprintResult {
  plan: Plan
  /** The sprint's context: text outside task blocks (structured) or the whole directives (ai). */
  context: string
  warnings: string[]
  /** What planning cost (ai mode); null when no model was asked. */
  usage: Usage | null
}

export async function planSprint(input: PlanSprintInput): Promise<PlanSprintResult> {
  const agentNames = Object.keys(input.config.agents)
  if (input.mode === 'structured') return structured(input.directives, agentNames, [])

  const planner = plannerAgent(input.config)
  if (input.mode === 'ai') {
    if ('error' in planner) throw new PlanError('ai planning is not possible', [planner.error])
    return ai(input, planner, agentNames, [`planned by provider agent "${planner.name}" (mode ai)`])
  }

  if ('error' in planner) return structured(input.directives, agentNames, [`planned from DIRECTIVES.md task blocks: ${planner.error}`])
  const reachable = await probe(planner.agent, input.platform, input.env)
  if (!reachable.ok) {
    return structured(input.directives, agentNames, [
      `planned from DIRECTIVES.md task blocks: planner agent "${planner.name}" did not answer (${reachable.message})`
    ])
  }
  try {
    return await ai(input, planner, agentNames, [`planned by provider agent "${planner.name}" (mode auto: it answered)`])
  } catch (error) {
    if (!(error instanceof PlanError) && !(error instanceof ProviderError)) throw error
    if (input.signal?.aborted) throw error
    // Fall back only when the task blocks make a complete plan on their own.
    const fallback = parseDirectives(input.directives, { knownAgents: agentNames })
    if (fallback.errors.length > 0 || fallback.plan.tasks.length === 0) throw error
    const reason = error instanceof PlanError ? error.errors.join('; ') : error.message
    return structured(input.directives, agentNames, [
      `planned from DIRECTIVES.md task blocks: planner agent "${planner.name}" failed (${reason})`
    ])
  }
}

type PlannerChoice = { name: string; agent: ProviderAgent } | { error: string }

/** planner.agent, else the first provider agent in the config. */
export function plannerAgent(config: ProjectConfig): PlannerChoice {
  const named = config.planner.agent
  if (named !== undefined) {
    const agent = config.agents[named]
    if (!agent) return { error: `planner.agent "${named}" is not a configured agent` }
    if (agent.kind === 'command') return { error: `planner.agent "${named}" is a command agent; planning needs a provider agent` }
    return { name: named, agent }
  }
  for (const [name, agent] of Object.entries(config.agents)) if (agent.kind !== 'command') return { name, agent }
  return { error: 'no provider agent is configured' }
}

function structured(directives: string, agentNames: string[], warnings: string[]): PlanSprintResult {
  const parsed = parseDirectives(directives, { knownAgents: agentNames })
  if (parsed.errors.length > 0)
    throw new PlanError(
      'DIRECTIVES.md has errors',
      parsed.errors.map((e) => `line ${e.line}: ${e.message}`)
    )
  if (parsed.plan.tasks.length === 0)
    throw new PlanError('nothing to plan', ['DIRECTIVES.md has no "## Task N: title" blocks', ...warnings])
  return { plan: { ...parsed.plan, warnings }, context: parsed.context, warnings, usage: null }
}

async function ai(
  input: PlanSprintInput,
  planner: { name: string; agent: ProviderAgent },
  agentNames: string[],
  warnings: string[]
): Promise<PlanSprintResult> {
  const result = await planWithAi({
    agent: planner.agent,
    directives: input.directives,
    agentNames,
    platform: input.platform,
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.env ? { env: input.env } : {})
  })
  const all = result.attempts > 1 ? [...warnings, 'the first task list was invalid; the corrected one was used'] : warnings
  return { plan: { mode: 'ai', tasks: result.tasks, warnings: all }, context: input.directives.trim(), warnings: all, usage: result.usage }
}
