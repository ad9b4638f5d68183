import path from 'node:path'
import { fileURLToPath } from 'node:url'

const LOADER_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader'])

function isBarePackage(specifier: string): boolean {
  return !specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('file:')
}

/**
 * Only the loader flags of this process (`--import tsx` or `--import=tsx`), with bare package names
 * made absolute: the job runs in the project directory, where `tsx` would not resolve. Everything
 * else is dropped — Node 24's test runner hands its children dozens of flags (inspector ports,
 * test isolation, snapshots) that a long-lived job must not inherit.
 */
export function portableExecArgv(execArgv: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i] as string
    const eq = arg.indexOf('=')
    const flag = eq === -1 ? arg : arg.slice(0, eq)
    if (!LOADER_FLAGS.has(flag)) continue
    const value = eq === -1 ? execArgv[++i] : arg.slice(eq + 1)
    if (value === undefined) continue
    out.push(flag, isBarePackage(value) ? import.meta.resolve(value) : value)
  }
  return out
}

/**
 * How to start the detached job entry with the same runtime as this process: from dist/ it is
 * `node job-main.js`; from source (tsx) the loader flags this process was started with are
 * passed on so the .ts entry runs too.
 */
export function jobEntryCommand(args: readonly string[]): { command: string; args: string[] } {
  const here = fileURLToPath(import.meta.url)
  const entry = path.join(path.dirname(here), `job-main${path.extname(here)}`)
  return { command: process.execPath, args: [...portableExecArgv(process.execArgv), entry, ...args] }
}
