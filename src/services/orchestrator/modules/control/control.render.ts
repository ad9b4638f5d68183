import type { PlannedSprint } from '../../engine/engine.service.js'

/** `POST /api/plan`'s answer: the planned sprint with one line per task. */
export function renderPlanned(planned: PlannedSprint) {
  const { sprint } = planned
  return {
    id: sprint.id,
    number: sprint.number,
    title: sprint.title,
    status: sprint.status,
    mode: planned.mode,
    warnings: planned.warnings,
    tasks: planned.tasks.map((t) => ({
      id: t.id,
      key: t.key,
      title: t.title,
      status: t.status,
      priority: t.priority,
      dependencies: t.dependencies,
      agent: t.agent,
      risk: t.risk
    })),
    ...(planned.abandoned ? { abandoned: planned.abandoned } : {})
  }
}
