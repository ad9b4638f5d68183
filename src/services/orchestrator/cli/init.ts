import fs from 'node:fs'
import path from 'node:path'
import { nodePlatform } from '../../../core/platform.js'
import type { ProjectOptions } from './options.js'
import { DIRECTIVES_FILE } from '../engine/engine.service.js'
import { createProjectConfigSource } from '../project/config-source.js'
import { COMMAND_PRESET_NAMES } from '../engine/agents/registry.js'
import { initProject } from '../project/config.js'
import { quartetCommandLine } from '../engine/agents/quartet-command.js'
import { detectAgents } from '../project/detect.js'
import { findExecutable } from '../../../core/cli/self-command.js'
import { resolveProject } from './context.js'
import { configErrorLines, describeError, err, EXIT_OK, out, style } from './output.js'

const DIRECTIVES_TEMPLATE = `# Sprint goal (this text is the context every task's agent receives)

Describe what this sprint should achieve. Each "## Task N: title" block below becomes one task,
run by an agent in its own git worktree on a branch quartet/<sprint>/<task>.

An example of two tasks; to use it, take the blocks out of the code fence (text inside a fence
is never read as a task):

\`\`\`markdown
## Task 1: Add a greeting module
Create src/greeting.ts exporting greet(name) that returns "Hello, <name>!".
Files: src/greeting.ts
Go: greet("Ann") returns "Hello, Ann!"
Priority: HIGH

## Task 2: Use the greeting in the CLI
Depends on: 1
Print greet(process.argv[2]) from src/main.ts.
Files: src/main.ts
Agent: claude
No-go: other files are changed
\`\`\`
`

/** `quartet init`: never overwrites; says what it found, what it wrote and what to edit. */
export async function initCommand(options: ProjectOptions): Promise<number> {
  let projectRoot: string
  try {
    projectRoot = resolveProject(null, options).projectRoot
  } catch (error) {
    const { message, exitCode } = describeError(error)
    err(message)
    return exitCode
  }
  out(`Project ${projectRoot}`)
  const detected = await detectAgents({ ...nodePlatform() }, process.env)
  out('Agents:')
  for (const note of detected.notes) out(`  ${note}`)
  if (!detected.notes.some((n) => !n.startsWith('ollama:'))) out(`  no coding CLI (${COMMAND_PRESET_NAMES.join(', ')}) on PATH`)

  const result = initProject(projectRoot, detected.agents)
  const config = createProjectConfigSource(projectRoot)
  const relative = path.relative(projectRoot, result.configPath)
  if (result.configCreated) {
    const agents = result.agents.length > 0 ? `agents ${result.agents.join(', ')}` : 'no agents yet'
    out(`${style.green('created')} ${relative} (${agents}); edit "agents" and "default_agent" there to choose who runs tasks.`)
  } else {
    out(`${style.dim('kept')}    ${relative}: it already exists and is never overwritten.`)
    const existing = config.read()
    for (const line of existing.errors.length > 0 ? configErrorLines(result.configPath, existing.errors) : []) out(line)
  }
  const exclude = {
    added: 'added .quartet/ to .git/info/exclude',
    present: '.quartet/ is already in .git/info/exclude',
    'not-a-git-repo': 'not a git repository: tasks will run in place, without worktrees or branches (git init to get them)'
  }
  out(`${result.gitExclude === 'added' ? style.green('git') : style.dim('git')}     ${exclude[result.gitExclude]}`)

  const directives = path.join(projectRoot, DIRECTIVES_FILE)
  if (fs.existsSync(directives)) {
    out(`${style.dim('kept')}    ${DIRECTIVES_FILE}: it already exists.`)
  } else {
    fs.writeFileSync(directives, DIRECTIVES_TEMPLATE, { flag: 'wx' })
    out(`${style.green('created')} ${DIRECTIVES_FILE}: a template with a commented example of two tasks.`)
  }
  const noAgents = Object.keys(config.read().config.agents).length === 0
  out('')
  out('Next steps:')
  if (noAgents) out(`  - add an agent to ${relative}, e.g. "agents": {"sh": {"kind": "command", "argv": ["my-agent", "{prompt}"]}}`)
  out(`  1. write your tasks in ${DIRECTIVES_FILE} ("## Task N: title" blocks)`)
  out('  2. quartet doctor      check git, the data directory, the config and the agents')
  out('  3. quartet plan        see the tasks that will run')
  out('  4. quartet run         run them (quartet status, quartet logs <task> -f, quartet kill)')
  out('')
  out('Claude Code outside a run (its permission prompts as Quartet approvals; runs with permissions "ask" get it wired):')
  out(`  claude mcp add quartet -- ${quartetCommandLine(['mcp', '--project', projectRoot], findExecutable('quartet', process.env))}`)
  return EXIT_OK
}
