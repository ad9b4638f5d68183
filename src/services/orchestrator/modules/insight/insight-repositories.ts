import type { OrchestratorRepositories } from '../../state/repositories.js'

/** What the insight views read. */
export type InsightRepositories = Pick<OrchestratorRepositories, 'insight' | 'sprints' | 'coverage' | 'memory' | 'events'>
