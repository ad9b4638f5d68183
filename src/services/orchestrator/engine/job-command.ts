import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { portableExecArgv } from '../../../core/cli/self-command.js'

/**
 * How to start the detached job entry with the same runtime as this process: from dist/ it is
 * `node job-main.js`; from source (tsx) the loader flags this process was started with are
 * passed on so the .ts entry runs too.
 */
export function jobEntryCommand(
  args: readonly string[],
  name: 'job-main' | 'job-watchdog' = 'job-main'
): { command: string; args: string[] } {
  const here = fileURLToPath(import.meta.url)
  const entry = path.join(path.dirname(here), `${name}${path.extname(here)}`)
  return { command: process.execPath, args: [...portableExecArgv(process.execArgv), entry, ...args] }
}
