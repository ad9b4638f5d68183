/**
 * Checks every planner applies to a task list, whoever wrote it (DIRECTIVES.md or a model):
 * keys are unique, dependencies name tasks of the same plan, and the dependency graph has no cycle.
 */
export interface GraphProblem {
  /** The task the problem belongs to (the later one for duplicates, the first of a cycle). */
  key: string
  kind: 'duplicate' | 'unknown-dependency' | 'cycle' | 'unknown-agent'
  message: string
}

interface GraphTask {
  key: string
  dependencies: readonly string[]
  agent?: string | undefined
}

export function checkTaskGraph(tasks: readonly GraphTask[], knownAgents?: readonly string[]): GraphProblem[] {
  const problems: GraphProblem[] = []
  const byKey = new Map<string, GraphTask>()
  for (const task of tasks) {
    if (byKey.has(task.key)) problems.push({ key: task.key, kind: 'duplicate', message: `duplicate task key "${task.key}"` })
    else byKey.set(task.key, task)
  }
  for (const task of tasks) {
    for (const dep of task.dependencies) {
      if (!byKey.has(dep))
        problems.push({ key: task.key, kind: 'unknown-dependency', message: `task ${task.key} depends on unknown task "${dep}"` })
    }
    if (knownAgents && task.agent !== undefined && !knownAgents.includes(task.agent)) {
      problems.push({
        key: task.key,
        kind: 'unknown-agent',
        message: `task ${task.key} names unknown agent "${task.agent}" (configured: ${knownAgents.join(', ') || 'none'})`
      })
    }
  }
  for (const cycle of findCycles(byKey)) {
    problems.push({
      key: cycle[0]!,
      kind: 'cycle',
      message: `dependency cycle: ${[...cycle, cycle[0]].map((k) => `Task ${k}`).join(' → ')}`
    })
  }
  return problems
}

/** Each cycle once, as the keys in dependency order starting from the first task (in plan order) on it. */
function findCycles(byKey: Map<string, GraphTask>): string[][] {
  const order = [...byKey.keys()]
  const state = new Map<string, 'visiting' | 'done'>()
  const stack: string[] = []
  const cycles: string[][] = []
  const seen = new Set<string>()

  const visit = (key: string): void => {
    state.set(key, 'visiting')
    stack.push(key)
    for (const dep of byKey.get(key)?.dependencies ?? []) {
      if (!byKey.has(dep)) continue
      const depState = state.get(dep)
      if (depState === 'visiting') {
        const cycle = stack.slice(stack.indexOf(dep))
        const rotated = rotateToEarliest(cycle, order)
        const id = rotated.join('\u0000')
        if (!seen.has(id)) {
          seen.add(id)
          cycles.push(rotated)
        }
      } else if (depState === undefined) {
        visit(dep)
      }
    }
    stack.pop()
    state.set(key, 'done')
  }
  for (const key of order) if (!state.has(key)) visit(key)
  return cycles
}

function rotateToEarliest(cycle: string[], order: string[]): string[] {
  let start = 0
  for (let i = 1; i < cycle.length; i++) if (order.indexOf(cycle[i]!) < order.indexOf(cycle[start]!)) start = i
  return [...cycle.slice(start), ...cycle.slice(0, start)]
}
