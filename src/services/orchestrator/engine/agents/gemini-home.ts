/**
 * The Gemini home of an `ask` run. Gemini CLI 0.61 reads hooks only from settings files: the
 * worktree's (which would end up in the task's commit), system ones (skipped unless root owns the
 * file and every folder above it) and the user's. So the run gets its own home (GEMINI_CLI_HOME)
 * outside the worktree: the user's `~/.gemini` entries linked in, and the user's settings with
 * Quartet's hook added. Rebuilt before every run, so nothing an earlier run changed carries over.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const SETTINGS = 'settings.json'

/** The `.gemini` folder Gemini CLI would use with this environment. */
export function realGeminiDir(env: Record<string, string | undefined>): string {
  return path.join(env.GEMINI_CLI_HOME || env.HOME || os.homedir(), '.gemini')
}

/** Builds `<home>/.gemini` from `real`: links, and its settings plus `hook` on BeforeTool; throws on unreadable settings. */
export function prepareGeminiHome(home: string, real: string, matcher: string, hook: { name: string; [key: string]: unknown }): void {
  const settings = readSettings(path.join(real, SETTINGS))
  fs.rmSync(home, { recursive: true, force: true })
  const dir = path.join(home, '.gemini')
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
  const entries = fs.existsSync(real) ? fs.readdirSync(real) : []
  for (const entry of entries) if (entry !== SETTINGS) fs.symlinkSync(path.join(real, entry), path.join(dir, entry))
  const hooks = isRecord(settings.hooks) ? settings.hooks : {}
  const before = Array.isArray(hooks.BeforeTool) ? hooks.BeforeTool : []
  const config = isRecord(settings.hooksConfig) ? settings.hooksConfig : {}
  const disabled = Array.isArray(config.disabled) ? config.disabled.filter((name) => name !== hook.name) : []
  // The user's own switches must not turn Quartet's gate off: a hook that does not run lets the call through.
  const merged = {
    ...settings,
    hooksConfig: { ...config, enabled: true, disabled },
    hooks: { ...hooks, BeforeTool: [...before, { matcher, hooks: [hook] }] }
  }
  fs.writeFileSync(path.join(dir, SETTINGS), `${JSON.stringify(merged, null, 2)}\n`, { mode: 0o600 })
}

function readSettings(file: string): Record<string, unknown> {
  if (!fs.existsSync(file)) return {}
  let value: unknown
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (error) {
    throw new Error(`Gemini CLI's ask posture cannot read ${file} as plain JSON (comments are not supported): ${String(error)}`, {
      cause: error
    })
  }
  if (!isRecord(value)) throw new Error(`Gemini CLI's ask posture: ${file} is not a JSON object`)
  return value
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
