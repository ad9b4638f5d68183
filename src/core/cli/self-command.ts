/**
 * How to run this installation's own CLI from anywhere: the running Node with this process's
 * loader flags and the absolute path of the CLI entry. Start-up hints and `quartet init` print it
 * as `quartet …` only when the `quartet` on PATH is this installation — never `npx quartet`, which
 * outside this checkout resolves to an unrelated npm package of that name.
 */
import fs from 'node:fs'
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

/** The CLI entry of this installation (dist/cli/main.js, or src/cli/main.ts under tsx). */
function cliEntry(): string {
  const here = fileURLToPath(import.meta.url)
  return path.resolve(path.dirname(here), '..', '..', 'cli', `main${path.extname(here)}`)
}

export function selfCommand(args: readonly string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [...portableExecArgv(process.execArgv), cliEntry(), ...args] }
}

/**
 * The command line a user types to run this installation's CLI: `quartet` when the `quartet` on
 * PATH is this installation, else the absolute node and entry paths.
 */
export function selfCommandLine(args: readonly string[], onPath: string | null = findExecutable('quartet', process.env)): string {
  const own = selfCommand(args)
  const same = onPath !== null && realpath(onPath) === realpath(cliEntry())
  return (same ? ['quartet', ...args] : [own.command, ...own.args]).map(shellWord).join(' ')
}

function realpath(file: string): string {
  try {
    return fs.realpathSync(file)
  } catch {
    return file
  }
}

/** One shell word, quoted only when it needs to be. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/** Finds an executable the way a shell would, without running anything. */
export function findExecutable(name: string, env: Record<string, string | undefined>, cwd: string = process.cwd()): string | null {
  if (name === '') return null
  if (name.includes('/')) {
    const full = path.resolve(cwd, name)
    return isExecutableFile(full) ? full : null
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue
    const full = path.join(dir, name)
    if (isExecutableFile(full)) return full
  }
  return null
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false
    fs.accessSync(file, fs.constants.X_OK)
    return true
  } catch {
    return false
  }
}
