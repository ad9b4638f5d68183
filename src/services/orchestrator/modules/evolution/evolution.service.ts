/**
 * Evolution (docs/orchestrator.md#evolution): read-only projections of recorded runs.
 *  - genealogy: each agent's line of configurations as the runs saw them — a node per agent and
 *    model it ran with, an edge from one to the next when the model changed;
 *  - retirement: agents whose success rate over their last `evolution.retirement_window` tasks
 *    fell below `evolution.retirement_threshold`;
 *  - prompt metrics: per agent, success by prompt version (the digest of the DIRECTIVES.md a
 *    sprint was planned from), with the trend from the previous version to the current one.
 */
import type { ProjectConfig } from '../../project/config-schema.js'
import type { EvolutionRepository, FinishedTask } from '../../state/evolution.repository.js'

export interface EvolutionDeps {
  repository: EvolutionRepository
  config: () => Pick<ProjectConfig, 'evolution' | 'default_agent'>
}

interface GenealogyNode {
  agentId: string
  agent: string
  model: string | null
  firstSeen: string
  lastSeen: string
  uses: number
}

const rate = (tasks: FinishedTask[]) => (tasks.length === 0 ? 0 : tasks.filter((t) => t.status === 'DONE').length / tasks.length)
const round = (n: number) => Math.round(n * 1000) / 1000
// Two rates closer than this are "stable": one task more or less in a small sample is noise.
const TREND_MARGIN = 0.05

export function createEvolutionService(deps: EvolutionDeps) {
  const agentOf = (task: FinishedTask) => task.agent ?? deps.config().default_agent ?? 'default'

  async function byAgent(): Promise<Map<string, FinishedTask[]>> {
    const groups = new Map<string, FinishedTask[]>()
    for (const task of await deps.repository.finishedTasks()) {
      const agent = agentOf(task)
      groups.set(agent, [...(groups.get(agent) ?? []), task])
    }
    return groups
  }

  return {
    async genealogy() {
      const nodes: Record<string, GenealogyNode> = {}
      const edges: { parent: string; child: string }[] = []
      const roots: string[] = []
      const current = new Map<string, string>()
      for (const use of await deps.repository.modelUses()) {
        const agentId = use.model ? `${use.agent}@${use.model}` : use.agent
        const node = nodes[agentId]
        if (node) {
          node.lastSeen = use.startedAt
          node.uses++
        } else {
          nodes[agentId] = { agentId, agent: use.agent, model: use.model, firstSeen: use.startedAt, lastSeen: use.startedAt, uses: 1 }
          const parent = current.get(use.agent)
          if (parent === undefined) roots.push(agentId)
          else edges.push({ parent, child: agentId })
        }
        current.set(use.agent, agentId)
      }
      return { roots, nodes, edges }
    },

    async retirement() {
      const { retirement_window: window, retirement_threshold: threshold } = deps.config().evolution
      const retired = []
      for (const [agent, tasks] of await byAgent()) {
        if (tasks.length < window) continue
        const recent = tasks.slice(-window)
        const successRate = rate(recent)
        if (successRate >= threshold) continue
        retired.push({
          id: agent,
          retiredAt: recent.at(-1)!.finishedAt,
          reason: `success rate ${round(successRate)} over its last ${window} tasks is below ${threshold}`,
          stats: {
            successRate: round(successRate),
            totalUses: tasks.length,
            sprintsParticipated: new Set(tasks.map((t) => t.sprintId)).size
          },
          source: 'recorded-runs'
        })
      }
      return retired.sort((a, b) => a.id.localeCompare(b.id))
    },

    async promptMetrics() {
      const metrics = []
      for (const [agent, tasks] of await byAgent()) {
        // Versions in the order they were first used.
        const versions: string[] = []
        const byVersion = new Map<string, FinishedTask[]>()
        for (const task of tasks) {
          const version = task.directivesDigest ? task.directivesDigest.slice(0, 12) : 'unversioned'
          if (!byVersion.has(version)) {
            versions.push(version)
            byVersion.set(version, [])
          }
          byVersion.get(version)!.push(task)
        }
        const currentVersion = tasks.at(-1)!.directivesDigest?.slice(0, 12) ?? 'unversioned'
        const currentRate = rate(byVersion.get(currentVersion)!)
        const previous = versions.filter((v) => v !== currentVersion).at(-1)
        let trend: 'improving' | 'declining' | 'stable' = 'stable'
        if (previous !== undefined) {
          const delta = currentRate - rate(byVersion.get(previous)!)
          if (delta > TREND_MARGIN) trend = 'improving'
          else if (delta < -TREND_MARGIN) trend = 'declining'
        }
        metrics.push({
          agentId: agent,
          currentVersion,
          totalVersions: versions.length,
          currentSuccessRate: round(currentRate),
          trend,
          experimentStatus: 'none' as const,
          versions: versions.map((v) => ({ version: v, tasks: byVersion.get(v)!.length, successRate: round(rate(byVersion.get(v)!)) }))
        })
      }
      return metrics.sort((a, b) => a.agentId.localeCompare(b.agentId))
    }
  }
}
export type EvolutionService = ReturnType<typeof createEvolutionService>
