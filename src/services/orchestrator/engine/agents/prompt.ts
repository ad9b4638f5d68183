/**
 * The one prompt every agent gets for one task: the sprint's context, what to do, where, how
 * success is judged, and on a retry why the previous attempt failed.
 */
import type { PlannedTask } from '../types.js'

export interface PromptContext {
  attempt?: number
  /** The sprint's context: DIRECTIVES.md text before the first task. */
  sprintContext?: string
  /** Why the previous attempt failed, so a retry does not repeat it blindly. */
  previousReason?: string
  /** The last lines of the previous attempt's log. */
  previousLogTail?: readonly string[]
  /** Project notes to pass on (conventions, memory). */
  notes?: string
}

const LOG_TAIL_LINES = 20

export function buildTaskPrompt(task: PlannedTask, context: PromptContext = {}): string {
  const sections: string[] = []
  if (context.sprintContext?.trim()) sections.push(`# Sprint context\n${context.sprintContext.trim()}`)
  sections.push(`# Task: ${task.title}`, task.description.trim() || '(no description)')
  if (task.files.length > 0) sections.push(`## Files in scope\n${bullets(task.files)}`)
  if (task.goCriteria.length > 0) sections.push(`## Done when (go criteria)\n${bullets(task.goCriteria)}`)
  if (task.noGoCriteria.length > 0) sections.push(`## Not acceptable (no-go criteria)\n${bullets(task.noGoCriteria)}`)
  if (context.notes?.trim()) sections.push(`## Project notes\n${context.notes.trim()}`)
  if (context.attempt !== undefined && context.attempt > 1) {
    const why = context.previousReason ? ` The previous attempt ended: ${context.previousReason}` : ''
    const tail = (context.previousLogTail ?? []).slice(-LOG_TAIL_LINES).filter((line) => line.trim() !== '')
    const log = tail.length ? `\n\nThe end of its log:\n\`\`\`\n${tail.join('\n')}\n\`\`\`` : ''
    sections.push(`## Earlier attempt\nThis is attempt ${context.attempt}; earlier work may already be present in the files.${why}${log}`)
  }
  const changeRule = task.expectChange
    ? 'Make the changes by editing files in the current working directory (it is the project checkout for this task). ' +
      'Do not ask questions: nobody can answer them; decide and proceed.'
    : 'No file change is expected for this task; report your findings on standard output. ' +
      'Work in the current working directory. Do not ask questions: nobody can answer them.'
  sections.push(`## How to work\n${changeRule}`)
  return `${sections.join('\n\n')}\n`
}

const bullets = (items: readonly string[]) => items.map((item) => `- ${item}`).join('\n')
