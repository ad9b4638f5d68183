/**
 * Readiness diagnostics (`GET /api/doctor`, `quartet doctor`): can this machine run a sprint for
 * this project? Each check says whether it is required; `ok` is true when every required one passed.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { ProjectConfigResult } from '../project/config.js'
import type { AgentConfig } from '../project/config-schema.js'
import { findExecutable } from '../../../core/cli/self-command.js'
import { commandTemplate, permissionsOf } from './agents/command-agent.js'
import { probe } from './providers/client.js'
import { runCommand } from './command.js'
import type { EnginePlatform } from './types.js'

export interface DoctorCheck {
  name: string
  passed: boolean
  message: string
  required: boolean
}

export interface DoctorReport {
  ok: boolean
  checks: DoctorCheck[]
}

export interface DoctorInput {
  root: string
  dataDir: string
  configResult: ProjectConfigResult
  platform: EnginePlatform
  env: Record<string, string | undefined>
}

export async function runDoctor(input: DoctorInput): Promise<DoctorReport> {
  const [gitChecks, agentChecks] = await Promise.all([checkGit(input), checkAgents(input)])
  const checks = [...gitChecks, checkDataDir(input.dataDir), checkConfig(input.configResult), ...agentChecks]
  return { ok: checks.every((c) => c.passed || !c.required), checks }
}

async function checkGit({ root, platform, env }: DoctorInput): Promise<DoctorCheck[]> {
  const version = await runCommand(platform, 'git', ['--version'], { cwd: root, timeoutMs: 10_000, env: { ...process.env, ...env } })
  if (version.code !== 0) {
    const why = version.spawnError ?? (version.stderr.trim() || `exit ${version.code}`)
    return [{ name: 'git', passed: false, message: `git is not available: ${why}`, required: true }]
  }
  const inside = await runCommand(platform, 'git', ['rev-parse', '--show-toplevel'], {
    cwd: root,
    timeoutMs: 10_000,
    env: { ...process.env, ...env }
  })
  const repo: DoctorCheck =
    inside.code === 0
      ? { name: 'git repository', passed: true, message: `${inside.stdout.trim()}: tasks run in their own worktrees`, required: false }
      : {
          name: 'git repository',
          passed: false,
          message: `${root} is not a git repository: tasks run in place, without worktrees, branches or commits`,
          required: false
        }
  return [{ name: 'git', passed: true, message: version.stdout.trim(), required: true }, repo]
}

function checkDataDir(dataDir: string): DoctorCheck {
  const probeFile = path.join(dataDir, `.doctor-${process.pid}-${crypto.randomBytes(4).toString('hex')}`)
  try {
    fs.mkdirSync(dataDir, { recursive: true })
    fs.writeFileSync(probeFile, 'ok', { flag: 'wx' })
    fs.rmSync(probeFile)
    return { name: 'data directory', passed: true, message: `${dataDir} is writable`, required: true }
  } catch (error) {
    try {
      fs.rmSync(probeFile, { force: true })
    } catch {
      // The directory itself is unusable (e.g. a path through a file): nothing was created.
    }
    return { name: 'data directory', passed: false, message: `${dataDir} is not writable: ${(error as Error).message}`, required: true }
  }
}

function checkConfig(result: ProjectConfigResult): DoctorCheck {
  if (result.errors.length > 0) {
    const list = result.errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ')
    return { name: 'project config', passed: false, message: `${result.errors.length} problem(s): ${list}`, required: true }
  }
  const message = result.exists ? '.quartet/config.json is valid' : 'no .quartet/config.json: built-in defaults in use (run quartet init)'
  return { name: 'project config', passed: true, message, required: true }
}

async function checkAgents({ root, configResult, platform, env }: DoctorInput): Promise<DoctorCheck[]> {
  const agents = Object.entries(configResult.config.agents)
  if (agents.length === 0) {
    // An invalid file yields the defaults, which hold no agents: "run quartet init" would not help.
    const message =
      configResult.exists && configResult.errors.length > 0
        ? 'not read: .quartet/config.json is invalid (see "project config"); fix it, then run quartet doctor again'
        : 'no agents configured: run quartet init, or add one under "agents" in .quartet/config.json'
    return [{ name: 'agents', passed: false, message, required: true }]
  }
  // Only the agent tasks fall back to must work; the others are reported but do not fail the doctor.
  const defaultAgent = configResult.config.default_agent ?? agents[0]![0]
  return Promise.all(agents.map(([name, agent]) => checkAgent(name, agent, name === defaultAgent, root, platform, env)))
}

async function checkAgent(
  name: string,
  agent: AgentConfig,
  required: boolean,
  root: string,
  platform: EnginePlatform,
  env: Record<string, string | undefined>
): Promise<DoctorCheck> {
  const label = `agent ${name}`
  if (agent.kind === 'command') {
    let program: string
    try {
      program = commandTemplate(name, agent).argv[0]!
    } catch (error) {
      return { name: label, passed: false, message: (error as Error).message, required }
    }
    const posture = agent.argv ? 'permissions as its argv sets them' : `permissions ${permissionsOf(agent)}`
    const found = findExecutable(program, env, root)
    return found
      ? { name: label, passed: true, message: `${program} → ${found} (${posture})`, required }
      : { name: label, passed: false, message: `${program} is not on PATH`, required }
  }
  const result = await probe(agent, platform, env)
  return { name: label, passed: result.ok, message: `${agent.kind} ${agent.model}: ${result.message}`, required }
}
