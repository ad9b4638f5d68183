import fs from 'node:fs'
import path from 'node:path'
import { createHash } from 'node:crypto'

export interface PersistedSecret {
  value: string
  file: string
  created: boolean
}

/**
 * A development secret generated on first use and kept, mode 0600, in the data dir so restarts
 * keep tokens valid. Production configures real secrets instead.
 */
export function loadOrCreateSecret(dataDir: string, name: string, generate: () => string): PersistedSecret {
  const file = path.join(dataDir, 'secrets', name)
  try {
    return { value: fs.readFileSync(file, 'utf8').trim(), file, created: false }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  const value = generate()
  try {
    fs.writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' })
  } catch (error) {
    // Another process created it between our read and write: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { value: fs.readFileSync(file, 'utf8').trim(), file, created: false }
    throw error
  }
  return { value, file, created: true }
}

/** A short non-reversible fingerprint to print instead of a secret. */
export function fingerprint(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 12)
}
