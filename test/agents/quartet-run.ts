// Runs a real coding-agent CLI (pinned in test/helpers/agent-clis.ts) through Quartet as a user would, for the
// test/agents/run-<cli>.contract.test.ts files: the CLI on PATH, `quartet init` (which writes the preset with its
// default posture), DIRECTIVES.md, `quartet plan`, `quartet run`, the CLI pointed at a scripted model server
// through its normal settings. QUARTET_AGENT_CLI_TESTS=0 skips them.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import type { TestContext } from 'node:test'
import type { AgentCliName } from '../helpers/agent-clis.js'
import { baseEnv, makeWorkspace, type Workspace } from '../helpers/agent-run.js'
import { runCli } from '../helpers/cli.js'
import { startModelServer, type Api, type ModelServer, type Turn } from '../helpers/model-server/index.js'

export const OFF = process.env.QUARTET_AGENT_CLI_TESTS === '0' ? 'skipped: QUARTET_AGENT_CLI_TESTS=0' : undefined
const CONTEXT = 'Sprint context marker: CTX-QUARTET-20'

interface Setup {
  api: Api
  /** The CLI's settings pointing it at the server (files under HOME, environment). */
  configure(ws: Workspace, server: ModelServer): Record<string, string>
  /** A tool call writing `file` (relative to the task's worktree) with `content`. */
  write(worktree: () => string, file: string, content: string): Turn
}

export const SETUPS: Partial<Record<AgentCliName, Setup>> = {
  claude: {
    api: 'anthropic',
    configure: (_ws, server) => ({
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'sk-ant-scripted',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_MAX_RETRIES: '0'
    }),
    // Claude Code's Write takes an absolute path: the worktree is known once the task runs, so the call is built then.
    write: (worktree, file, content) => ({
      get tools() {
        return [{ name: 'Write', input: { file_path: path.join(worktree(), file), content } }]
      }
    })
  },
  codex: {
    api: 'openai',
    configure(ws, server) {
      const home = path.join(ws.home, '.codex')
      fs.mkdirSync(home, { recursive: true })
      const toml = [
        'model = "gpt-5.5"',
        'model_provider = "scripted"',
        '[model_providers.scripted]',
        'name = "Scripted"',
        `base_url = "${server.url}/v1"`,
        'wire_api = "responses"',
        'env_key = "SCRIPTED_API_KEY"',
        'request_max_retries = 0',
        'stream_max_retries = 0'
      ]
      fs.writeFileSync(path.join(home, 'config.toml'), `${toml.join('\n')}\n`)
      return { CODEX_HOME: home, SCRIPTED_API_KEY: 'sk-scripted' }
    },
    write: (_worktree, file, content) => ({
      tools: [
        {
          name: 'apply_patch',
          input: ['*** Begin Patch', `*** Add File: ${file}`, `+${content.trimEnd()}`, '*** End Patch', ''].join('\n')
        }
      ]
    })
  },
  gemini: {
    api: 'gemini',
    configure(ws, server) {
      fs.mkdirSync(path.join(ws.home, '.gemini'), { recursive: true })
      const settings = { security: { auth: { selectedType: 'gemini-api-key' } }, general: { maxAttempts: 1 } }
      fs.writeFileSync(path.join(ws.home, '.gemini', 'settings.json'), JSON.stringify(settings))
      return { GEMINI_API_KEY: 'scripted-key', GOOGLE_GEMINI_BASE_URL: server.url, GEMINI_CLI_NO_RELAUNCH: 'true' }
    },
    write: (_worktree, file, content) => ({ tools: [{ name: 'write_file', input: { file_path: file, content } }] })
  }
}

export interface Project {
  ws: Workspace
  server: ModelServer
  /** The environment every `quartet` command of the project runs with (the CLI on PATH, its model settings). */
  env: Record<string, string | undefined>
  quartet(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>
  /** `quartet status --json`, asserting its exit code (1: a task is NO_GO; docs/orchestrator.md). */
  status(expectedCode?: number): Promise<any>
}

/** Task 1's worktree (the first task of sprint s1), once it exists. */
export function firstWorktree(ws: Workspace): string {
  const dir = path.join(ws.repo, '.quartet', 'worktrees', 's1', 's1-1')
  assert.ok(fs.existsSync(dir), `task worktree ${dir}`)
  return dir
}

export async function project(
  t: TestContext,
  name: AgentCliName,
  bin: string,
  turns: (worktree: () => string) => Turn[]
): Promise<Project> {
  const setup = SETUPS[name]!
  const ws = makeWorkspace()
  const server = await startModelServer(setup.api, { turns: turns(() => firstWorktree(ws)) })
  t.after(async () => {
    await server.close()
    ws.cleanup()
  })
  const env = {
    ...baseEnv(ws),
    PATH: `${path.dirname(bin)}${path.delimiter}${process.env.PATH ?? ''}`,
    QUARTET_DATA_DIR: path.join(ws.root, 'data'),
    DATABASE_URL: undefined,
    LOG_LEVEL: 'silent',
    GIT_AUTHOR_NAME: 'Quartet Test',
    GIT_AUTHOR_EMAIL: 'test@quartet.invalid',
    GIT_COMMITTER_NAME: 'Quartet Test',
    GIT_COMMITTER_EMAIL: 'test@quartet.invalid',
    ...setup.configure(ws, server)
  }
  const quartet = (...args: string[]) => runCli([...args, '--project', ws.repo], env)
  return {
    ws,
    server,
    env,
    quartet,
    status: async (expectedCode = 0) => {
      const answer = await quartet('status', '--json')
      assert.equal(answer.code, expectedCode, answer.stderr)
      return JSON.parse(answer.stdout)
    }
  }
}

/** init → DIRECTIVES.md (the context, then the tasks) → plan → run, as a user does it; answers the run's output. */
export async function initPlanRun(p: Project, name: AgentCliName, tasks: string) {
  const init = await p.quartet('init')
  assert.equal(init.code, 0, init.stderr)
  assert.match(init.stdout, /claude mcp add quartet -- /)
  const config = JSON.parse(fs.readFileSync(path.join(p.ws.repo, '.quartet', 'config.json'), 'utf8'))
  assert.deepEqual(config.agents[name], { kind: 'command', preset: name, permissions: 'worktree' })
  fs.writeFileSync(path.join(p.ws.repo, 'DIRECTIVES.md'), `# Greetings\n\n${CONTEXT}\n\n${tasks}`)
  const plan = await p.quartet('plan')
  assert.equal(plan.code, 0, `${plan.stdout}\n${plan.stderr}`)
  return p.quartet('run')
}

export function tasksOf(status: any): any[] {
  const tasks = status.tasks ?? status.sprint?.tasks
  assert.ok(Array.isArray(tasks), JSON.stringify(status).slice(0, 2000))
  return tasks
}

export function explain(p: Project, run: { stdout: string; stderr: string }): string {
  return `${run.stdout}\n${run.stderr}\nmodel requests: ${p.server.requests.length}, unanswered: ${p.server.unanswered().length}`
}

export const TWO_TASKS =
  '## Task 1: Write hello.txt\nFiles: hello.txt\nGo: hello.txt exists\n\n' +
  '## Task 2: Extend hello.txt\nDepends on: 1\nFiles: hello.txt\nGo: hello.txt has two lines\n'

/**
 * One sprint of two tasks against the scripted model: task 1 writes hello.txt (DONE, committed), task 2 meets a
 * sticky API error (NO_GO naming it). The model saw the sprint context; usage was recorded for task 1.
 */
export async function writeThenApiError(
  t: TestContext,
  name: AgentCliName,
  bin: string
): Promise<{ p: Project; tasks: any[]; sprint: any }> {
  const p = await project(t, name, bin, (worktree) => [
    SETUPS[name]!.write(worktree, 'hello.txt', 'Hello from the model\n'),
    { text: 'done' },
    { error: { status: 400, message: 'scripted-bad-request-7' }, sticky: true }
  ])
  const run = await initPlanRun(p, name, TWO_TASKS)
  const why = explain(p, run)
  // Task 2 ends NO_GO by design: status exits 1.
  const status = await p.status(1)
  const tasks = tasksOf(status)
  const [first, second] = tasks
  assert.equal(first.status, 'DONE', why)
  assert.ok(first.commitSha, why)
  assert.equal(p.ws.git('show', `${first.commitSha}:hello.txt`), 'Hello from the model\n', why)
  const request = p.server.turnRequests()[0]?.request
  assert.ok(
    request?.texts.some((text) => text.includes('CTX-QUARTET-20')),
    `sprint context in the first request: ${why}`
  )
  assert.equal(second.status, 'NO_GO', why)
  assert.match(second.reason ?? '', /scripted-bad-request-7|400/, why)
  // The agent's own usage report was read (the sprint's total is the sum of its attempts').
  assert.ok(status.sprint.tokensUsed > 0, `usage recorded: ${JSON.stringify(status.sprint)}`)
  return { p, tasks, sprint: status.sprint }
}
