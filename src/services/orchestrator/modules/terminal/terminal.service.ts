/**
 * Terminal sessions: real PTYs of kind shell, ai (an allow-listed agent CLI) or quartet (this
 * CLI), each with a server-side screen model. Sessions outlive their sockets: a client attaches
 * and detaches, only DELETE, the process's own exit, the idle reaper or the server's shutdown end
 * one. Every action is audited without the bytes typed or shown.
 */
import { randomUUID } from 'node:crypto'
import { selfCommand } from '../../../../core/cli/self-command.js'
import { orchestratorError } from '../../errors.js'
import type { Principal } from '../../principal.js'
import type { TerminalConfig } from '../../project/config-schema.js'
import type { TerminalRepository } from '../../state/terminal.repository.js'
import { createOutboundQuota } from './outbound-quota.js'
import { killProcessGroup, type PtyProcess, type SpawnPty } from './pty.js'
import { createScreenModel } from './screen.js'
import { createAttachments, type TerminalClient } from './attachments.js'
import type { Session, SessionKind, SessionMeta } from './session.js'

export type { Session, SessionKind, SessionMeta } from './session.js'

export interface CreateSessionInput {
  kind?: SessionKind
  tool?: string
  args?: string[]
  cols?: number
  rows?: number
}

export interface TerminalServiceDeps {
  projectRoot: string
  projectId: number
  repository: TerminalRepository
  config: () => TerminalConfig
  spawnPty: SpawnPty
  clock: () => Date
  env: Readonly<Record<string, string | undefined>>
  logger: { warn(obj: unknown, msg: string): void }
  killGraceMs?: number
}

// Secrets of this server never reach a terminal's environment.
const STRIPPED_ENV = new Set(['QUARTET_API_TOKEN', 'DATABASE_URL', 'REDIS_URL'])

export function createTerminalService(deps: TerminalServiceDeps) {
  const sessions = new Map<string, Session>()
  const now = () => deps.clock().getTime()
  const quota = createOutboundQuota({ projectId: deps.projectId, repository: deps.repository, clock: deps.clock, logger: deps.logger })

  function audit(
    caller: Pick<Principal, 'tenantId' | 'id'>,
    action: string,
    sessionId: string | null,
    detail: Record<string, unknown> = {}
  ) {
    return deps.repository
      .audit(deps.projectId, { id: `audit-${randomUUID()}`, tenantId: caller.tenantId, principal: caller.id, action, sessionId, detail })
      .catch((error: unknown) => deps.logger.warn({ err: error }, `terminal: audit ${action} failed`))
  }

  function enabledConfig(caller: Principal): TerminalConfig {
    const config = deps.config()
    if (!config.enabled) throw orchestratorError('ORCH_TERMINAL_DISABLED')
    if (config.strict_tenant && !caller.tenantClaimed) throw orchestratorError('ORCH_TERMINAL_TENANT_REQUIRED')
    return config
  }

  function visible(caller: Principal, id: string): Session | undefined {
    const session = sessions.get(id)
    return session && session.meta.tenantId === caller.tenantId ? session : undefined
  }

  function commandOf(config: TerminalConfig, input: CreateSessionInput): { command: string; args: string[]; tool?: string } {
    const kind = input.kind ?? 'shell'
    const args = input.args ?? []
    if (kind === 'shell') {
      if (!config.allow_shell_kind) throw orchestratorError('ORCH_TERMINAL_SHELL_DISABLED')
      return { command: deps.env.SHELL || 'bash', args }
    }
    if (kind === 'ai') {
      const tool = input.tool ?? config.ai_tools[0]
      if (tool === undefined || !config.ai_tools.includes(tool)) {
        throw orchestratorError(
          'ORCH_TERMINAL_TOOL_NOT_ALLOWED',
          `ai session tool not allowed: allowed tools are ${config.ai_tools.join(', ') || 'none'}`
        )
      }
      return { command: tool, args, tool }
    }
    return selfCommand(args)
  }

  const attachments = createAttachments({
    quota,
    quotaLimit: () => deps.config().outbound_daily_quota_bytes,
    audit,
    touch: (session) => {
      session.lastActivity = now()
    }
  })

  function end(session: Session, reason: string): void {
    if (session.meta.status === 'running') killProcessGroup(session.meta.pid, deps.killGraceMs ?? 2000)
    attachments.sessionEnded(session, reason)
    session.screen.dispose()
    sessions.delete(session.meta.id)
  }

  return {
    /** The number of live sessions (health, tests). */
    get size() {
      return sessions.size
    },

    async create(caller: Principal, input: CreateSessionInput): Promise<SessionMeta> {
      const config = enabledConfig(caller)
      const { command, args, tool } = commandOf(config, input)
      const running = [...sessions.values()].filter((s) => s.meta.status === 'running').length
      if (running >= config.max_sessions) throw orchestratorError('ORCH_TERMINAL_LIMIT', `max sessions reached (${config.max_sessions})`)
      const cols = input.cols ?? 80
      const rows = input.rows ?? 24
      const env: Record<string, string> = { TERM: 'xterm-256color' }
      for (const [key, value] of Object.entries(deps.env)) if (value !== undefined && !STRIPPED_ENV.has(key)) env[key] = value
      env.TERM = 'xterm-256color'
      let pty: PtyProcess
      try {
        pty = deps.spawnPty(command, args, { cols, rows, cwd: deps.projectRoot, env })
      } catch (error) {
        await audit(caller, 'session.spawn_failed', null, { kind: input.kind ?? 'shell', ...(tool ? { tool } : {}) })
        throw orchestratorError('ORCH_TERMINAL_SPAWN_FAILED', `the session could not be started: ${(error as Error).message}`)
      }
      const meta: SessionMeta = {
        id: randomUUID(),
        kind: input.kind ?? 'shell',
        ...(tool ? { tool } : {}),
        tenantId: caller.tenantId,
        pid: pty.pid,
        createdAt: deps.clock().toISOString(),
        status: 'running',
        attached: 0
      }
      const session: Session = { meta, pty, screen: createScreenModel(cols, rows, config.scrollback_lines), lastActivity: now() }
      sessions.set(meta.id, session)
      pty.onData((data) => {
        session.lastActivity = now()
        session.screen.write(data)
        attachments.output(session, data)
      })
      pty.onExit(({ exitCode }) => {
        meta.status = 'exited'
        meta.exitCode = exitCode
        attachments.exited(session, exitCode)
        void audit(caller, 'session.exit', meta.id, { exitCode })
      })
      await audit(caller, 'session.create', meta.id, { kind: meta.kind, ...(tool ? { tool } : {}), pid: meta.pid, argc: args.length })
      return { ...meta }
    },

    list(caller: Principal): SessionMeta[] {
      enabledConfig(caller)
      return [...sessions.values()]
        .filter((s) => s.meta.tenantId === caller.tenantId)
        .map((s) => ({ ...s.meta, attached: attachments.count(s) }))
    },

    /** Kills the session's process group; unknown (or foreign) ids answer the same, so ids do not leak. */
    async kill(caller: Principal, id: string): Promise<void> {
      enabledConfig(caller)
      const session = visible(caller, id)
      if (!session) return
      end(session, 'killed')
      await audit(caller, 'session.kill', id, { pid: session.meta.pid })
    },

    /** Records an action of the token bootstrap or the socket gate (no session). */
    audit: (caller: Principal, action: string) => audit(caller, action, null),

    /** Checks a socket's caller before it is upgraded to a terminal client (throws the refusal). */
    admit(caller: Principal): void {
      enabledConfig(caller)
    },

    async attach(caller: Principal, client: TerminalClient, id: string): Promise<boolean> {
      const session = visible(caller, id)
      if (!session) return false
      return attachments.attach(caller, client, session)
    },

    input: (client: TerminalClient, data: string) => attachments.input(client, data),
    resize: (client: TerminalClient, cols: number, rows: number) => attachments.resize(client, cols, rows),
    detach: (client: TerminalClient) => attachments.detach(client),

    /** Kills sessions idle past the configured timeout (quartet sessions are exempt; exited ones are dropped). */
    async reap(): Promise<number> {
      const config = deps.config()
      const limit = config.idle_timeout_seconds * 1000
      let reaped = 0
      for (const session of [...sessions.values()]) {
        const idle = now() - session.lastActivity
        if (idle < limit || (session.meta.kind === 'quartet' && session.meta.status === 'running')) continue
        end(session, 'idle')
        reaped++
        await audit({ tenantId: session.meta.tenantId, id: 'terminal-reaper' }, 'session.reap', session.meta.id, { idleMs: idle })
      }
      return reaped
    },

    /** How often the reaper should look (a quarter of the idle timeout, between 250 ms and 30 s). */
    reapIntervalMs(): number {
      return Math.min(30_000, Math.max(250, Math.floor((deps.config().idle_timeout_seconds * 1000) / 4)))
    },

    tick: () => attachments.tick(),

    async close(): Promise<void> {
      for (const session of [...sessions.values()]) end(session, 'server shutdown')
      await quota.flush()
    }
  }
}

export type TerminalService = ReturnType<typeof createTerminalService>
