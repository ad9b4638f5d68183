import { spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'

/**
 * Everything impure a service touches, passed in through its context, so tests substitute real
 * alternatives (a fixed clock, a local HTTP peer) without test-only branches in src/.
 */
export interface Platform {
  clock: () => Date
  ids: { uuid(): string; token(bytes?: number): string }
  timers: {
    setTimeout: typeof setTimeout
    clearTimeout: typeof clearTimeout
    setInterval: typeof setInterval
    clearInterval: typeof clearInterval
  }
  fs: typeof fs
  spawn: typeof spawn
  fetch: typeof fetch
}

export function nodePlatform(overrides: Partial<Platform> = {}): Platform {
  return {
    clock: () => new Date(),
    ids: { uuid: () => randomUUID(), token: (bytes = 32) => randomBytes(bytes).toString('base64url') },
    timers: { setTimeout, clearTimeout, setInterval, clearInterval },
    fs,
    spawn,
    fetch: (input, init) => fetch(input, init),
    ...overrides
  }
}
