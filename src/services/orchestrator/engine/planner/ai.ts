/**
 * The AI planner: a provider agent turns DIRECTIVES.md into a JSON task list, which is checked by
 * schema and by the same graph rules as the structured planner. One corrective retry is allowed.
 */
import { Type, type Static } from 'typebox'
import Value from 'typebox/value'
import { describeSchemaErrors } from '../../project/schema-errors.js'
import { chat, type ChatMessage, type ProviderAgent } from '../providers/client.js'
import type { EnginePlatform, PlannedTask, Priority, Usage } from '../types.js'
import { PlanError } from './errors.js'
import { checkTaskGraph } from './graph.js'

const PriorityLiteral = Type.Union([
  Type.Literal('critical'),
  Type.Literal('high'),
  Type.Literal('normal'),
  Type.Literal('low'),
  Type.Literal('CRITICAL'),
  Type.Literal('HIGH'),
  Type.Literal('NORMAL'),
  Type.Literal('LOW')
])
const Key = Type.Union([Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' }), Type.Integer({ minimum: 0 })])

const AiTaskSchema = Type.Object(
  {
    key: Key,
    title: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.String(),
    dependencies: Type.Array(Key),
    files: Type.Array(Type.String({ minLength: 1 })),
    goCriteria: Type.Array(Type.String()),
    noGoCriteria: Type.Array(Type.String()),
    priority: PriorityLiteral,
    agent: Type.Optional(Type.String({ minLength: 1 })),
    expectChange: Type.Boolean()
  },
  { additionalProperties: false }
)

export const AiTaskListSchema = Type.Array(AiTaskSchema, { minItems: 1, maxItems: 100 })
type AiTask = Static<typeof AiTaskSchema>

const SYSTEM_PROMPT =
  'You plan a software sprint. Read the directives and answer with ONLY a JSON array of tasks ' +
  `(in a \`\`\`json block or bare), no prose.
Each task is an object with exactly these fields:
- "key": short unique id, e.g. "1", "2"
- "title": one line
- "description": what to do, for a developer who only sees this task
- "dependencies": keys of tasks that must finish first ([] if none); no cycles
- "files": paths or globs relative to the repository root that the task may change
- "goCriteria": checks that say the task is done
- "noGoCriteria": things that must not happen
- "priority": "critical" | "high" | "normal" | "low"
- "agent": optional, only one of the agent names listed below
- "expectChange": false only for tasks that change no file (analysis, review)
Keep tasks small enough for one agent run; order them so dependencies come first.`

export interface AiPlanInput {
  agent: ProviderAgent
  directives: string
  /** Names of configured agents a task may name. */
  agentNames: readonly string[]
  platform: EnginePlatform
  signal?: AbortSignal
  env?: Record<string, string | undefined>
}

export interface AiPlanResult {
  tasks: PlannedTask[]
  /** Both attempts added up, when there were two. */
  usage: Usage
  attempts: number
}

export async function planWithAi(input: AiPlanInput): Promise<AiPlanResult> {
  const messages: ChatMessage[] = [
    { role: 'system', content: `${SYSTEM_PROMPT}\nConfigured agents: ${input.agentNames.join(', ') || 'none'}.` },
    { role: 'user', content: `# Directives\n\n${input.directives.trim() || '(empty)'}` }
  ]
  const usage: Usage = { inputTokens: 0, outputTokens: 0, costUsd: null, model: input.agent.model }
  let errors: string[] = []
  for (let attempt = 1; attempt <= 2; attempt++) {
    const answer = await chat(
      input.agent,
      messages,
      { ...(input.signal ? { signal: input.signal } : {}), ...(input.env ? { env: input.env } : {}) },
      input.platform
    )
    addUsage(usage, answer.usage)
    const parsed = readTaskList(answer.text, input.agentNames)
    if (parsed.tasks) return { tasks: parsed.tasks, usage, attempts: attempt }
    errors = parsed.errors
    messages.push(
      { role: 'assistant', content: answer.text },
      {
        role: 'user',
        content: `That task list is invalid:\n${errors.map((e) => `- ${e}`).join('\n')}\nAnswer again with the corrected JSON array only.`
      }
    )
  }
  throw new PlanError('the planner model gave no valid task list in two attempts', errors)
}

/** Parses and validates a model's answer; either tasks or the reasons they were refused. */
export function readTaskList(
  text: string,
  agentNames: readonly string[]
): { tasks: PlannedTask[]; errors?: undefined } | { tasks?: undefined; errors: string[] } {
  const json = findJson(text)
  if (json === undefined) return { errors: ['the answer holds no JSON array'] }
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch (error) {
    return { errors: [`the JSON does not parse: ${error instanceof Error ? error.message : String(error)}`] }
  }
  // Models sometimes wrap the list: {"tasks": [...]}.
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Array.isArray((value as { tasks?: unknown }).tasks))
    value = (value as { tasks: unknown }).tasks
  if (!Value.Check(AiTaskListSchema, value)) return { errors: schemaErrors(value) }
  const tasks = (value as AiTask[]).map(toPlannedTask)
  const problems = checkTaskGraph(tasks, agentNames)
  if (problems.length > 0) return { errors: problems.map((p) => p.message) }
  return { tasks }
}

function toPlannedTask(task: AiTask): PlannedTask {
  return {
    key: String(task.key),
    title: task.title.trim(),
    description: task.description,
    dependencies: task.dependencies.map(String),
    files: task.files,
    goCriteria: task.goCriteria,
    noGoCriteria: task.noGoCriteria,
    priority: task.priority.toUpperCase() as Priority,
    ...(task.agent !== undefined ? { agent: task.agent } : {}),
    expectChange: task.expectChange
  }
}

function findJson(text: string): string | undefined {
  const fenced = /```(?:json)?[ \t]*\n([\s\S]*?)\n```/i.exec(text)
  if (fenced && /^\s*[[{]/.test(fenced[1]!)) return fenced[1]!
  const start = text.search(/[[{]/)
  if (start < 0) return undefined
  const end = Math.max(text.lastIndexOf(']'), text.lastIndexOf('}'))
  // No closing bracket: hand over the rest so the parse error says what is wrong.
  return end > start ? text.slice(start, end + 1) : text.slice(start)
}

function schemaErrors(value: unknown): string[] {
  // Element by element, so every bad task is reported, not just the first.
  const errors =
    Array.isArray(value) && value.length > 0 && value.length <= 100
      ? value.flatMap((item, i) => describeSchemaErrors(AiTaskSchema, item, `task[${i}]`))
      : describeSchemaErrors(AiTaskListSchema, value)
  return errors.slice(0, 20).map((e) => `${e.path || 'the list'}: ${e.message}`)
}

function addUsage(total: Usage, more: Usage): void {
  total.inputTokens += more.inputTokens
  total.outputTokens += more.outputTokens
  if (more.costUsd !== null) total.costUsd = (total.costUsd ?? 0) + more.costUsd
}
