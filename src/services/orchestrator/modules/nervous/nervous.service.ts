/**
 * The nervous system (docs/orchestrator.md#nervous): detectors run beside the engine on every
 * tick; what they find becomes a pending event with a recommendation. In `suggest` mode a human
 * accepts (the recommendation is applied) or rejects it; in `act` mode stop recommendations are
 * applied at once. The panic guard applies a high-risk event's stop at once in either mode.
 */
import type { Principal } from '../../principal.js'
import type { ProjectConfig } from '../../project/config-schema.js'
import type { NervousRepository, Recommendation, RunningTask } from '../../state/nervous.repository.js'
import {
  budgetBurn,
  DETECTORS,
  diskSpace,
  logGrowth,
  repeatedFailure,
  repeatedNoGo,
  wallTime,
  type Finding,
  type LogSamples
} from './detectors.js'

export interface NervousDeps {
  repository: NervousRepository
  config: () => Pick<ProjectConfig, 'nervous' | 'budget'>
  dataDir: string
  logFileOf: (task: RunningTask) => string
  clock: () => Date
  newId: (prefix: string) => string
  killTask: (taskId: string) => Promise<unknown>
  killJob: () => Promise<unknown>
  onError?: (error: unknown, what: string) => void
}

export type NervousAnswer<T> = { ok: true; body: T } | { ok: false; status: 404 | 409; body: { error: string; [key: string]: unknown } }

export function createNervousService(deps: NervousDeps) {
  const repo = deps.repository
  const samples: LogSamples = new Map()

  async function apply(rec: Recommendation): Promise<string> {
    if (rec.action === 'kill-task' && rec.target) {
      await deps.killTask(rec.target)
      return `task ${rec.target} stopped`
    }
    if (rec.action === 'kill-job') {
      await deps.killJob()
      return 'the active job was stopped'
    }
    return 'noted (nothing to stop)'
  }

  async function report(finding: Finding, act: boolean): Promise<void> {
    const stop = finding.recommendation.action !== 'free-disk'
    const now = act && stop
    const event = await repo.record({
      id: deps.newId('nrv'),
      type: now && finding.risk === 'high' ? 'panic-guard-kill' : finding.type,
      detector: finding.detector,
      subject: finding.subject,
      description: finding.description,
      risk: finding.risk,
      evidence: finding.evidence,
      ...(now ? { status: 'acted' as const } : {}),
      recommendation: { id: deps.newId('rec'), ...finding.recommendation, risk: finding.risk }
    })
    if (!event || !now) return
    for (const rec of await repo.recommendationsOf(event.id)) {
      const outcome = await apply(rec).catch((error: unknown) => `failed: ${error instanceof Error ? error.message : String(error)}`)
      await repo.closeRecommendation(rec.id, 'applied', outcome)
    }
  }

  return {
    /** One pass of every detector; answers how many findings there were (recorded once per subject). */
    async tick(): Promise<number> {
      const { nervous: config, budget } = deps.config()
      if (!config.enabled) return 0
      const now = deps.clock()
      const tasks = await repo.runningTasks()
      const findings: Finding[] = []
      const run = (name: string, detect: () => Finding[]) => {
        try {
          findings.push(...detect())
        } catch (error) {
          deps.onError?.(error, `detector ${name}`)
        }
      }
      let grew = new Set<string>()
      run('log-growth', () => {
        const growth = logGrowth(tasks, deps.logFileOf, samples, now, config)
        grew = growth.grew
        return growth.findings
      })
      run('wall-time', () => wallTime(tasks, grew, now, config))
      run('repeated-failure', () => repeatedFailure(tasks, deps.logFileOf, config))
      const sprint = await repo.activeSprint()
      if (sprint) {
        const noGo = await repo.noGoTasks(sprint.sprintId)
        run('no-go', () => repeatedNoGo(sprint.sprintId, noGo, config))
        run('budget-burn', () => budgetBurn(sprint, budget, now, config))
      }
      run('disk-space', () => diskSpace(deps.dataDir, now, config))
      for (const finding of findings) {
        const act = config.mode === 'act' || (config.panic_guard && finding.risk === 'high')
        await report(finding, act)
      }
      return findings.length
    },

    /** An alert from outside (a webhook connector with target nervous): a pending event for a human to look at. */
    async ingest(
      input: { title: string; description: string; payload: unknown },
      channel: string
    ): Promise<{ id: string; status: string }> {
      const id = deps.newId('nrv')
      await repo.record({
        id,
        type: 'external-alert',
        detector: `webhook:${channel}`,
        subject: id,
        description: input.title === input.description ? input.description : `${input.title}: ${input.description}`,
        risk: 'medium',
        evidence: { payload: input.payload ?? null },
        recommendation: { id: deps.newId('rec'), action: 'inspect', target: null, description: `look into: ${input.title}`, risk: 'medium' }
      })
      return { id, status: 'pending' }
    },

    async status() {
      const { nervous: config } = deps.config()
      const pending = await repo.events('pending')
      return {
        enabled: config.enabled,
        mode: config.mode,
        panicGuard: config.panic_guard,
        detectors: config.enabled ? [...DETECTORS] : [],
        pendingCount: pending.length
      }
    },

    async pending() {
      const events = await repo.events('pending')
      return events.map((e) => ({
        id: e.id,
        type: e.type,
        description: e.description,
        detector: e.detector,
        subject: e.subject,
        createdAt: e.createdAt,
        risk: e.risk,
        evidence: e.evidence
      }))
    },

    async recommendations(all: boolean) {
      return repo.recommendations(all)
    },

    /** Accepts a pending event: its open recommendations are applied now. */
    async accept(caller: Principal, id: string): Promise<NervousAnswer<{ accepted: string; applied: string[] }>> {
      const event = await repo.event(id)
      if (!event) return { ok: false, status: 404, body: { error: 'nervous event not found' } }
      if (!(await repo.decide(id, 'accepted', caller.id)))
        return { ok: false, status: 409, body: { error: `the event is already ${event.status}` } }
      const applied: string[] = []
      for (const rec of await repo.recommendationsOf(id)) {
        if (rec.status !== 'open') continue
        const outcome = await apply(rec).catch((error: unknown) => `failed: ${error instanceof Error ? error.message : String(error)}`)
        await repo.closeRecommendation(rec.id, 'applied', outcome)
        applied.push(outcome)
      }
      return { ok: true, body: { accepted: id, applied } }
    },

    async reject(caller: Principal, id: string): Promise<NervousAnswer<{ rejected: string }>> {
      const event = await repo.event(id)
      if (!event) return { ok: false, status: 404, body: { error: 'nervous event not found' } }
      if (!(await repo.decide(id, 'rejected', caller.id)))
        return { ok: false, status: 409, body: { error: `the event is already ${event.status}` } }
      for (const rec of await repo.recommendationsOf(id))
        if (rec.status === 'open') await repo.closeRecommendation(rec.id, 'dismissed', `rejected by ${caller.label}`)
      return { ok: true, body: { rejected: id } }
    },

    async dismiss(
      caller: Principal,
      id: string
    ): Promise<{ ok: true; body: { dismissed: string } } | { ok: false; status: 404; body: { dismissed: null; error: string } }> {
      if (!(await repo.closeRecommendation(id, 'dismissed', `dismissed by ${caller.label}`)))
        return { ok: false, status: 404, body: { dismissed: null, error: 'open recommendation not found' } }
      return { ok: true, body: { dismissed: id } }
    }
  }
}
export type NervousService = ReturnType<typeof createNervousService>
