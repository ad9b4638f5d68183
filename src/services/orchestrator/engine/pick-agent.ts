import type { AgentConfig, ProjectConfig } from '../project/config-schema.js'

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
