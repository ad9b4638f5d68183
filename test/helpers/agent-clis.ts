// Installs the real coding-agent CLIs the contract tests run (test/agents/*.contract.test.ts), at pinned exact
// versions, from the npm registry into a cache outside the repository — once per version. They are test tools,
// not dependencies of Quartet: nothing here touches package.json or node_modules.
//
//   cache: $QUARTET_AGENT_CACHE, else ~/.cache/quartet/agent-clis; one folder per <package>@<version>
//   CLI:   node scripts/install-agent-clis.mjs [claude|codex|gemini|opencode|qwen …]
//   QUARTET_SKIP_AGENT_CLIS=1 skips them (and the contract tests) on purpose.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * The pinned versions (exact; bump one here, and re-run the contract tests, to test another). `scripts` names the
 * packages whose install scripts must run (they put the native binary in place); `denyScripts` the optional
 * native add-ons whose builds are skipped (the CLIs run without them).
 */
export const AGENT_CLIS = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude', scripts: ['@anthropic-ai/claude-code'], denyScripts: [] },
  codex: { pkg: '@openai/codex', version: '0.171.0', bin: 'codex', scripts: [], denyScripts: [] },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini', scripts: [], denyScripts: ['node-pty', '@github/keytar'] },
  opencode: { pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode', scripts: ['opencode-ai'], denyScripts: [] },
  qwen: { pkg: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen', scripts: [], denyScripts: [] }
} as const satisfies Record<string, { pkg: string; version: string; bin: string; scripts: string[]; denyScripts: string[] }>

export type AgentCliName = keyof typeof AGENT_CLIS

export const AGENT_CLI_NAMES = Object.keys(AGENT_CLIS) as AgentCliName[]

export type AgentCliInstall =
  | { name: AgentCliName; pkg: string; version: string; bin: string; dir: string; skipped?: undefined }
  | { name: AgentCliName; pkg: string; version: string; skipped: string }

/** Where the CLIs are cached: $QUARTET_AGENT_CACHE or ~/.cache/quartet/agent-clis. */
export function agentCacheDir(): string {
  return process.env.QUARTET_AGENT_CACHE || path.join(os.homedir(), '.cache', 'quartet', 'agent-clis')
}

/** The cache folder of one pinned CLI: <cache>/<package with / as +>@<version>. */
export function agentCliDir(name: AgentCliName): string {
  const { pkg, version } = AGENT_CLIS[name]
  return path.join(agentCacheDir(), `${pkg.replace('/', '+')}@${version}`)
}

const MARKER = '.quartet-installed'
const INSTALL_TIMEOUT_MS = 15 * 60_000
const VERSION_TIMEOUT_MS = 60_000
// npm's messages when the registry cannot be reached (DNS, refused, reset, timeouts, proxies, offline mode).
const UNREACHABLE =
  /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ESOCKETTIMEDOUT|ENETUNREACH|EHOSTUNREACH|ENOTCACHED|network|socket hang up/i

function run(file: string, args: string[], options: { cwd?: string; timeout: number; env?: NodeJS.ProcessEnv }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; error?: Error }>((resolve) => {
    execFile(file, args, { ...options, maxBuffer: 64 * 1024 * 1024, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0
      resolve({ code, stdout: String(stdout), stderr: String(stderr), ...(error ? { error } : {}) })
    })
  })
}

function tail(text: string, lines = 12): string {
  return text.trim().split('\n').slice(-lines).join('\n')
}

/**
 * Installs one pinned CLI into the cache (once: a finished install is marked and reused) and answers the absolute
 * path of its binary — or `skipped` with the reason when the registry cannot be reached or the installed CLI
 * cannot run here. Any other install failure throws. Concurrent installs of the same CLI are safe: each installs
 * into its own staging folder that is renamed into place.
 */
export async function installAgentCli(name: AgentCliName, log: (line: string) => void = () => {}): Promise<AgentCliInstall> {
  const spec = AGENT_CLIS[name]
  const base = { name, pkg: spec.pkg, version: spec.version }
  if (process.env.QUARTET_SKIP_AGENT_CLIS) return { ...base, skipped: 'skipped: QUARTET_SKIP_AGENT_CLIS is set' }
  const dir = agentCliDir(name)
  const bin = path.join(dir, 'node_modules', '.bin', spec.bin)
  if (!fs.existsSync(path.join(dir, MARKER)) || !fs.existsSync(bin)) {
    fs.mkdirSync(path.dirname(dir), { recursive: true })
    const staging = `${dir}.staging-${process.pid}-${Date.now()}`
    fs.mkdirSync(staging)
    try {
      // npm ≥ 11.16 asks packages' install scripts to be allowed: the package.json of the install folder allows
      // the ones that place the native binary and denies optional native builds (older npm ignores the field).
      const allowScripts = Object.fromEntries([...spec.scripts.map((p) => [p, true]), ...spec.denyScripts.map((p) => [p, false])])
      fs.writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify({ private: true, allowScripts }, null, 2)}\n`)
      log(`installing ${spec.pkg}@${spec.version} into ${dir}`)
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
      // Install scripts may run the CLI (opencode-ai's runs `opencode --version`, which creates its XDG folders):
      // they get throw-away XDG folders, so that nothing lands in the real HOME (npm keeps its own cache, ~/.npm).
      const xdg = path.join(staging, '.xdg')
      const args = ['install', '--prefix', staging, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error']
      const installed = await run(npm, [...args, `${spec.pkg}@${spec.version}`], {
        cwd: staging,
        timeout: INSTALL_TIMEOUT_MS,
        env: {
          ...process.env,
          XDG_CONFIG_HOME: path.join(xdg, 'config'),
          XDG_DATA_HOME: path.join(xdg, 'data'),
          XDG_STATE_HOME: path.join(xdg, 'state'),
          XDG_CACHE_HOME: path.join(xdg, 'cache')
        }
      })
      fs.rmSync(xdg, { recursive: true, force: true })
      if (installed.code !== 0) {
        const output = `${installed.stderr}\n${installed.stdout}\n${installed.error?.message ?? ''}`
        if (UNREACHABLE.test(output)) {
          const why = output.split('\n').find((line) => UNREACHABLE.test(line) && !/proxy/.test(line)) ?? tail(output, 3)
          return {
            ...base,
            skipped: `skipped: the npm registry could not be reached to install ${spec.pkg}@${spec.version}: ${why.trim()}`
          }
        }
        if (/E404|ETARGET|No matching version/.test(output)) {
          return { ...base, skipped: `skipped: ${spec.pkg}@${spec.version} is not published on the npm registry: ${tail(output, 3)}` }
        }
        throw new Error(`npm install ${spec.pkg}@${spec.version} failed (exit ${installed.code}):\n${tail(output)}`)
      }
      fs.writeFileSync(path.join(staging, MARKER), `${spec.pkg}@${spec.version}\n`)
      try {
        fs.renameSync(staging, dir)
      } catch (error) {
        // Another process finished the same install first: use that one. A folder without the marker is an
        // install this code did not finish (or made by hand): replaced.
        if (!fs.existsSync(path.join(dir, MARKER))) {
          if (!fs.existsSync(dir)) throw error
          fs.rmSync(dir, { recursive: true, force: true })
          fs.renameSync(staging, dir)
        }
      }
    } finally {
      fs.rmSync(staging, { recursive: true, force: true })
    }
  }
  // The CLI must run here (a native binary for another platform or libc, or a Node version it refuses, would not).
  // It runs with a throw-away HOME, as the tests run it, so that it writes nothing into the real one.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-agent-version-'))
  const version = await run(bin, ['--version'], {
    cwd: home,
    timeout: VERSION_TIMEOUT_MS,
    env: { PATH: process.env.PATH ?? '', HOME: home, TMPDIR: home, NO_COLOR: '1' }
  }).finally(() => fs.rmSync(home, { recursive: true, force: true }))
  if (version.code !== 0 || !version.stdout.includes(spec.version)) {
    const output = tail(`${version.stdout}\n${version.stderr}`, 4)
    const why = `\`${spec.bin} --version\` exited ${version.code}: ${output}`
    return { ...base, skipped: `skipped: ${spec.bin} ${spec.version} is installed (${bin}) but cannot run here: ${why}` }
  }
  return { ...base, bin, dir }
}

/** Installs several pinned CLIs (all by default), one after another. */
export async function installAgentClis(names: AgentCliName[] = AGENT_CLI_NAMES, log?: (line: string) => void): Promise<AgentCliInstall[]> {
  const out: AgentCliInstall[] = []
  for (const name of names) out.push(await installAgentCli(name, log))
  return out
}
