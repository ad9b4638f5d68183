import { spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'

/**
 * What a service takes from its context instead of from Node directly, so tests substitute real
 * alternatives (a fixed clock, a local HTTP peer, a spawn that counts processes) without
 * test-only branches in src/: the clock, random ids, child processes and outbound HTTP. Files are
 * read and written with node:fs directly; tests give services real temporary directories.
 */
export interface Platform {
  clock: () => Date
  ids: { uuid(): string; token(bytes?: number): string }
  spawn: typeof spawn
  fetch: typeof fetch
}

export function nodePlatform(overrides: Partial<Platform> = {}): Platform {
  return {
    clock: () => new Date(),
    ids: { uuid: () => randomUUID(), token: (bytes = 32) => randomBytes(bytes).toString('base64url') },
    spawn,
    fetch: (input, init) => fetch(input, init),
    ...overrides
  }
}
