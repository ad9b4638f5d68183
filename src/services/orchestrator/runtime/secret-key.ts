import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { ensurePrivateDir } from './private-file.js'

/**
 * A 32-byte secret kept in a 0600 file, created on first use. Two processes creating it at once
 * agree on one (the first link wins), so tokens signed by one verify in the other.
 */
export function loadOrCreateSecretKey(file: string, what: string): Buffer {
  ensurePrivateDir(path.dirname(file))
  if (!fs.existsSync(file)) {
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    fs.writeFileSync(temporary, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' })
    try {
      fs.linkSync(temporary, file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    } finally {
      fs.rmSync(temporary, { force: true })
    }
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex')
  if (key.length < 32) throw new Error(`the ${what} key ${file} is damaged (expected 64 hex characters)`)
  return key
}
