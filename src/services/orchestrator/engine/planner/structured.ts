/**
 * The structured planner: `## Task N: title` blocks of DIRECTIVES.md become PlannedTasks, without
 * any model. The syntax is documented in docs/orchestrator-config.md ("DIRECTIVES.md").
 */
import { RISKS, type Plan, type PlannedTask, type Priority, type Risk } from '../types.js'
import { checkTaskGraph } from './graph.js'

export interface DirectivesError {
  /** 1-based line in the markdown. */
  line: number
  message: string
}

export interface ParsedDirectives {
  plan: Plan
  /** Text outside task blocks (before the first one, or under other level-1/2 headings): the sprint's context. */
  context: string
  errors: DirectivesError[]
}

// `## Task 3: title`, `## Task 3 - title`, `## Task 3` (an error: no title). The key may hold `.`/`-`.
const TASK_HEADING = /^##\s+Task\s+([A-Za-z0-9][A-Za-z0-9._-]*?)\s*(?:([:\u2013\u2014]|-(?=\s|$))\s*(.*?))?(?:\s+#+)?\s*$/i
// A heading that means to be a task but misses its key or separator: `## Task: x`, `## Task 3 x`.
const TASK_HEADING_START = /^##\s+Task(?:\s*:|\s+[-\u2013\u2014]\s|\s+\d)/i
const OTHER_HEADING = /^#{1,2}\s/
const FENCE = /^\s*(```|~~~)/
// `- **Go:** text`, `Go: text`, `* go : text` — label case-insensitive, optional bullet and bold.
const OPTION_LABEL = 'depends\\s+on|dependencies|files|go|no-go|nogo|agent|priority|risk|check|expect\\s+change'
const OPTION = new RegExp(
  '^\\s*(?:[-*+]\\s+)?(?:\\*\\*|__)?(' + OPTION_LABEL + ')\\s*(?:\\*\\*|__)?\\s*:\\s*(?:\\*\\*|__)?\\s*(.*?)\\s*$',
  'i'
)

interface Block {
  task: PlannedTask
  headingLine: number
  dependsLine: number
  agentLine: number
  seen: Set<string>
  description: string[]
}

export function parseDirectives(markdown: string, options: { knownAgents?: readonly string[] } = {}): ParsedDirectives {
  // Editors on Windows save a byte-order mark, which would hide a first `## Task` heading.
  const lines = markdown
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
  const errors: DirectivesError[] = []
  const context: string[] = []
  const blocks: Block[] = []
  let current: Block | null = null
  let inFence = false

  lines.forEach((text, index) => {
    const line = index + 1
    if (FENCE.test(text)) inFence = !inFence
    const heading = inFence ? null : matchTaskHeading(text)
    if (heading === 'malformed') {
      errors.push({ line, message: 'task heading must look like "## Task N: title" or "## Task N - title"' })
      current = null
      return
    }
    if (heading) {
      const { key, title } = heading
      if (title === '') errors.push({ line, message: `Task ${key}: empty title` })
      current = {
        task: {
          key,
          title,
          description: '',
          dependencies: [],
          files: [],
          goCriteria: [],
          noGoCriteria: [],
          priority: 'NORMAL',
          expectChange: true
        },
        headingLine: line,
        dependsLine: line,
        agentLine: line,
        seen: new Set(),
        description: []
      }
      blocks.push(current)
      return
    }
    if (!inFence && OTHER_HEADING.test(text)) current = null
    if (current === null) {
      context.push(text)
      return
    }
    const option = inFence ? null : OPTION.exec(text)
    if (option) applyOption(current, option[1]!.toLowerCase().replace(/\s+/g, ' '), option[2]!, line, errors)
    else current.description.push(text)
  })

  const tasks = blocks.map((block) => ({ ...block.task, description: trimBlankLines(block.description).join('\n') }))
  const blockOf = new Map<string, Block>()
  for (const block of blocks) if (!blockOf.has(block.task.key)) blockOf.set(block.task.key, block)

  const problems = checkTaskGraph(tasks, options.knownAgents)
  const duplicatesSeen = new Map<string, number>()
  for (const problem of problems) {
    const block = blockOf.get(problem.key)
    let line = block?.headingLine ?? 0
    if (problem.kind === 'duplicate') {
      // One problem per repeated heading, in order: the n-th names the (n+1)-th heading's line.
      const nth = (duplicatesSeen.get(problem.key) ?? 0) + 1
      duplicatesSeen.set(problem.key, nth)
      line = blocks.filter((b) => b.task.key === problem.key)[nth]?.headingLine ?? line
    } else if (problem.kind === 'unknown-dependency') line = block?.dependsLine ?? line
    else if (problem.kind === 'unknown-agent') line = block?.agentLine ?? line
    errors.push({ line, message: problem.message })
  }
  errors.sort((a, b) => a.line - b.line)

  const uniqueTasks = tasks.filter((task, i) => tasks.findIndex((t) => t.key === task.key) === i)
  return { plan: { mode: 'structured', tasks: uniqueTasks, warnings: [] }, context: trimBlankLines(context).join('\n'), errors }
}

function matchTaskHeading(text: string): { key: string; title: string } | 'malformed' | null {
  const match = TASK_HEADING.exec(text)
  // Without a separator only a numeric-looking key makes a task heading ("## Task list" is prose).
  if (match && (match[2] !== undefined || /\d/.test(match[1]!))) return { key: match[1]!, title: (match[3] ?? '').trim() }
  return TASK_HEADING_START.test(text) ? 'malformed' : null
}

function applyOption(block: Block, label: string, value: string, line: number, errors: DirectivesError[]): void {
  const task = block.task
  const singleton = label !== 'go' && label !== 'no-go' && label !== 'nogo'
  const name = label === 'dependencies' ? 'depends on' : label
  if (singleton && block.seen.has(name)) {
    errors.push({ line, message: `Task ${task.key}: "${name}:" given twice` })
    return
  }
  block.seen.add(name)
  switch (label) {
    case 'depends on':
    case 'dependencies':
      block.dependsLine = line
      task.dependencies = splitList(value)
        .map((item) => item.replace(/^task\s+/i, '').replace(/^#/, ''))
        .filter((item) => !/^(none|-|n\/a)$/i.test(item))
      return
    case 'files':
      task.files = splitList(value)
      return
    case 'go':
      if (value !== '') task.goCriteria.push(value)
      return
    case 'no-go':
    case 'nogo':
      if (value !== '') task.noGoCriteria.push(value)
      return
    case 'agent':
      block.agentLine = line
      if (value === '') errors.push({ line, message: `Task ${task.key}: empty agent name` })
      else task.agent = stripTicks(value)
      return
    case 'priority': {
      const priority = value.toUpperCase()
      if (isPriority(priority)) task.priority = priority
      else errors.push({ line, message: `Task ${task.key}: unknown priority "${value}" (use critical, high, normal or low)` })
      return
    }
    case 'risk': {
      const risk = value.toLowerCase()
      if (isRisk(risk)) task.risk = risk
      else errors.push({ line, message: `Task ${task.key}: unknown risk "${value}" (use ${RISKS.join(', ')})` })
      return
    }
    case 'check':
      if (value === '') errors.push({ line, message: `Task ${task.key}: empty check command` })
      else task.check = stripTicks(value)
      return
    case 'expect change':
      if (/^(no|false|none)$/i.test(value)) task.expectChange = false
      else if (/^(yes|true)$/i.test(value)) task.expectChange = true
      else errors.push({ line, message: `Task ${task.key}: "Expect change:" must be yes or no, not "${value}"` })
      return
    default:
      return
  }
}

function isRisk(value: string): value is Risk {
  return (RISKS as readonly string[]).includes(value)
}

function isPriority(value: string): value is Priority {
  return value === 'CRITICAL' || value === 'HIGH' || value === 'NORMAL' || value === 'LOW'
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => stripTicks(item.trim()))
    .filter((item) => item !== '')
}

function stripTicks(value: string): string {
  const match = /^`+([^`]*)`+$/.exec(value.trim())
  return (match ? match[1]! : value).trim()
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0
  let end = lines.length
  while (start < end && lines[start]!.trim() === '') start++
  while (end > start && lines[end - 1]!.trim() === '') end--
  return lines.slice(start, end)
}
