import type { FastifyBaseLogger } from 'fastify'
import type { OrchestratorState } from '../../app.js'
import { createMemoryReadService } from './memory-read.service.js'
import { memoryRoutes } from './memory.routes.js'
import { createTokenSealer, loadOrCreateMemoryKey } from './opaque-token.js'
import { localProjectPrincipal } from './principal.js'

// A page is at most maxBytes of entries plus its candidates (about 60 KB at the default limits): a few MB when full.
const CACHED_PAGES = 64

/** Wires the memory routes: the project's token key, the read service, and the principal of each request. */
export function memoryModule({ state, logger }: { state: OrchestratorState; logger: FastifyBaseLogger }) {
  const reads = createMemoryReadService({
    repository: state.repositories.memory,
    sealer: createTokenSealer(loadOrCreateMemoryKey(state.dataDir, state.projectId)),
    onQueryFailed: (error) => logger.warn({ err: error }, 'orchestrator: memory query failed'),
    cachedPages: CACHED_PAGES
  })
  // The bearer gate admits only this server's token, which stands for the local project (no tenant claims yet).
  const principal = localProjectPrincipal(state.projectId)
  return memoryRoutes({ reads, principalOf: () => principal })
}
