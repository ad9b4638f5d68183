/**
 * Work debt (`GET /api/debt`): the debt entries of the memory (the engine records one per NO_GO or
 * BLOCKED task when a sprint ends; people may add their own) of the recent sprints, as markdown.
 * "" when there is none.
 */
import { metadataOf as metadataObject, type MemoryEntry } from '../../state/domain.js'
import type { MemoryScopeKey } from '../../state/memory.repository.js'
import type { InsightRepositories } from './insight-repositories.js'

export const DEBT_SPRINTS = 10
const MAX_DEBT_ENTRIES = 500
const REASON_CHARS = 300

interface TaskDebt {
  taskId?: string
  taskTitle?: string
  taskStatus?: string
  sprintId?: string
  sprintTitle?: string
  branch?: string | null
}

function firstLine(text: string | null): string {
  const line =
    (text ?? '')
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? 'no reason recorded'
  return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS - 1)}…` : line
}

function metadataOf(entry: MemoryEntry): TaskDebt {
  return metadataObject(entry) as TaskDebt
}

function debtLine(entry: MemoryEntry): string {
  const task = metadataOf(entry)
  if (!task.taskId) return `- \`#${entry.id}\` ${entry.title}: ${firstLine(entry.content)}`
  const branch = task.branch ? ` (work kept on \`${task.branch}\`)` : ''
  return `- **${task.taskStatus ?? 'DEBT'}** \`${task.taskId}\` ${task.taskTitle ?? entry.title}: ${firstLine(entry.content)}${branch}`
}

export async function debtMarkdown(repositories: InsightRepositories, scope: MemoryScopeKey): Promise<string> {
  const entries = await repositories.memory.listByType(scope, 'debt', ['active'], MAX_DEBT_ENTRIES)
  if (entries.length === 0) return ''
  const groups = new Map<string, { heading: string; lines: string[] }>()
  for (const entry of entries) {
    const task = metadataOf(entry)
    const key = entry.sprint_id ?? ''
    if (!groups.has(key)) {
      if (key !== '' && [...groups.keys()].filter((k) => k !== '').length >= DEBT_SPRINTS) continue
      groups.set(key, { heading: key === '' ? 'Other debt' : `${key}: ${task.sprintTitle ?? 'sprint'}`, lines: [] })
    }
    groups.get(key)!.lines.push(debtLine(entry))
  }
  const sections = [...groups.values()].map((group) => `## ${group.heading}\n\n${group.lines.join('\n')}`)
  return `# Debt\n\n${sections.join('\n\n')}\n`
}
