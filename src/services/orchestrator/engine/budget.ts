import type { ProjectConfig } from '../project/config-schema.js'
import { toMicroUsd } from '../state/attempts.repository.js'
import type { SprintUsage } from '../state/sprints.repository.js'

export interface SprintBudget {
  tokens: number | null
  microUsd: number | null
}

export function sprintBudget(config: ProjectConfig): SprintBudget {
  return {
    tokens: config.budget.sprint_tokens ?? null,
    microUsd: config.budget.sprint_usd === undefined ? null : toMicroUsd(config.budget.sprint_usd)
  }
}

/** Why the sprint is over its budget, or null while it is within it. Reaching the limit counts as over. */
export function budgetExceeded(usage: SprintUsage, budget: SprintBudget): string | null {
  if (budget.tokens !== null && usage.tokensUsed >= budget.tokens) {
    return `sprint budget exceeded: ${usage.tokensUsed} tokens used, limit ${budget.tokens}`
  }
  if (budget.microUsd !== null && usage.costMicroUsd >= budget.microUsd) {
    return `sprint budget exceeded: $${(usage.costMicroUsd / 1e6).toFixed(4)} spent, limit $${(budget.microUsd / 1e6).toFixed(4)}`
  }
  return null
}
