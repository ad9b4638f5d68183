import assert from 'node:assert/strict'
import { test } from 'node:test'
import { parseDirectives } from '../../../../src/services/orchestrator/engine/planner/structured.js'

const FULL = `# Sprint 7

Make the CLI friendlier. Context line two.

## Task 1: Add a --verbose flag
Add a verbose flag to the CLI.

It prints each step.
- Files: src/cli/main.ts, \`docs/*\`
- Go: \`quartet --verbose\` prints steps
- Go: existing tests pass
- No-go: output changes without --verbose
- Priority: high
- Agent: claude
- Check: npm test -- --grep verbose

## Task 2 - Document the flag
**Depends on:** Task 1
FILES: docs/cli.md
PRIORITY: Critical

\`\`\`
Go: this line is inside a fence, so it is description
## Task 9: not a heading either
\`\`\`

## Task 3: Review the change
Depends on: 1, 2
Expect change: no
Priority: low

## Notes
These notes are context too.
`

test('structured: every option is read, fences and other headings respected, context collected', () => {
  const { plan, context, errors } = parseDirectives(FULL)
  assert.deepEqual(errors, [])
  assert.equal(plan.mode, 'structured')
  assert.deepEqual(
    plan.tasks.map((t) => t.key),
    ['1', '2', '3']
  )
  const [one, two, three] = plan.tasks
  assert.deepEqual(one, {
    key: '1',
    title: 'Add a --verbose flag',
    description: 'Add a verbose flag to the CLI.\n\nIt prints each step.',
    dependencies: [],
    files: ['src/cli/main.ts', 'docs/*'],
    goCriteria: ['`quartet --verbose` prints steps', 'existing tests pass'],
    noGoCriteria: ['output changes without --verbose'],
    priority: 'HIGH',
    agent: 'claude',
    check: 'npm test -- --grep verbose',
    expectChange: true
  })
  assert.equal(two?.title, 'Document the flag')
  assert.deepEqual(two?.dependencies, ['1'])
  assert.deepEqual(two?.files, ['docs/cli.md'])
  assert.equal(two?.priority, 'CRITICAL')
  assert.match(two?.description ?? '', /Go: this line is inside a fence/)
  assert.match(two?.description ?? '', /## Task 9: not a heading either/)
  assert.deepEqual(three?.dependencies, ['1', '2'])
  assert.equal(three?.expectChange, false)
  assert.equal(three?.priority, 'LOW')
  assert.equal(three?.description, '')
  assert.equal(context, '# Sprint 7\n\nMake the CLI friendlier. Context line two.\n\n## Notes\nThese notes are context too.')
})

test('structured: duplicate key, unknown dependency, unknown priority, empty title, bad expect-change — each with its line', () => {
  const md = [
    '## Task 1: first', // 1
    'Depends on: 7', // 2
    '## Task 1: again', // 3
    'Priority: urgent', // 4
    '## Task 2:', // 5
    'Expect change: maybe', // 6
    'Agent: ghost', // 7
    '## Task 3 do it' // 8
  ].join('\n')
  const { errors, plan } = parseDirectives(md, { knownAgents: ['claude'] })
  assert.deepEqual(errors, [
    { line: 2, message: 'task 1 depends on unknown task "7"' },
    { line: 3, message: 'duplicate task key "1"' },
    { line: 4, message: 'Task 1: unknown priority "urgent" (use critical, high, normal or low)' },
    { line: 5, message: 'Task 2: empty title' },
    { line: 6, message: 'Task 2: "Expect change:" must be yes or no, not "maybe"' },
    { line: 7, message: 'task 2 names unknown agent "ghost" (configured: claude)' },
    { line: 8, message: 'task heading must look like "## Task N: title" or "## Task N - title"' }
  ])
  assert.deepEqual(
    plan.tasks.map((t) => t.key),
    ['1', '2']
  )
})

test('structured: a dependency cycle is named, once, starting at its first task; self-dependency too', () => {
  const md = [
    '## Task 1: a',
    'Depends on: 3',
    '## Task 2: b',
    'Depends on: 1',
    '## Task 3: c',
    'Depends on: 2',
    '## Task 4: d',
    'Depends on: 4'
  ].join('\n')
  const { errors } = parseDirectives(md)
  assert.deepEqual(errors, [
    { line: 1, message: 'dependency cycle: Task 1 → Task 3 → Task 2 → Task 1' },
    { line: 7, message: 'dependency cycle: Task 4 → Task 4' }
  ])
})

test('structured: no task blocks → empty plan, all text is context; "## Task list" is prose', () => {
  const { plan, context, errors } = parseDirectives('Just notes\n## Task list\nsee below\n')
  assert.deepEqual(errors, [])
  assert.deepEqual(plan.tasks, [])
  assert.equal(context, 'Just notes\n## Task list\nsee below')
})

test('structured: CRLF input, en-dash separator, "none" dependencies, repeated singleton option', () => {
  const { plan, errors } = parseDirectives('## Task 10 \u2013 Title with C#\r\nDepends on: none\r\nAgent: a\r\nAgent: b\r\n')
  assert.equal(plan.tasks[0]?.title, 'Title with C#')
  assert.deepEqual(plan.tasks[0]?.dependencies, [])
  assert.equal(plan.tasks[0]?.agent, 'a')
  assert.deepEqual(errors, [{ line: 4, message: 'Task 10: "agent:" given twice' }])
})

test('structured: a byte-order mark does not hide the first task heading', () => {
  const parsed = parseDirectives('\uFEFF## Task 1: first\r\nbody\r\n')
  assert.deepEqual(parsed.errors, [])
  assert.deepEqual(
    parsed.plan.tasks.map((t) => [t.key, t.title, t.description]),
    [['1', 'first', 'body']]
  )
})

test('structured: a task heading without its key is an error on its line, not silent context', () => {
  const parsed = parseDirectives('# Sprint\n## Task list\nprose\n## Task: add a flag\nbody\n## Task - docs\n')
  assert.deepEqual(
    parsed.errors.map((e) => e.line),
    [4, 6]
  )
  assert.match(parsed.errors[0]!.message, /## Task N: title/)
  assert.deepEqual(parsed.plan.tasks, [])
})

test('structured: each repeated task key is reported on its own heading line', () => {
  const parsed = parseDirectives('## Task 1: a\n## Task 1: b\n## Task 1: c\n')
  assert.deepEqual(parsed.errors, [
    { line: 2, message: 'duplicate task key "1"' },
    { line: 3, message: 'duplicate task key "1"' }
  ])
})
