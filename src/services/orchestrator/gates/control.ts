import { normalisedPathOf } from './paths.js'

// The orchestration-control mutations the dashboard must not drive over HTTP unless enabled.
const GOVERNED_POSTS = new Set([
  '/api/start',
  '/api/plan',
  '/api/cleanup',
  '/api/set-directives',
  '/api/directives',
  '/api/config',
  '/api/chat',
  '/api/git/commit'
])
const GOVERNED_POST_PREFIXES = [
  '/api/kill/',
  '/api/nervous/accept/',
  '/api/nervous/reject/',
  '/api/nervous/recommendations/dismiss/',
  '/api/autonomous/approve/',
  '/api/autonomous/reject/'
]
// A GET that mutates: it sends a chat message to the configured agent.
const GOVERNED_GETS = new Set(['/api/chat/stream'])

export const CONTROL_MUTATIONS_ENV = 'QUARTET_CONTROL_MUTATIONS'

export const CONTROL_MUTATION_REFUSAL =
  'HTTP orchestration-control mutations are disabled. Control lives in the terminal: ' +
  'use `quartet plan`, `quartet run` (`--resume`), `quartet kill` or `quartet status`, ' +
  'and edit .quartet/config.json or DIRECTIVES.md directly. ' +
  `Emergency re-enable: set \`api.control_mutations: true\` in .quartet/config.json or ${CONTROL_MUTATIONS_ENV}=1.`

function governedPath(method: string, path: string): boolean {
  if (method === 'POST') return GOVERNED_POSTS.has(path) || GOVERNED_POST_PREFIXES.some((prefix) => path.startsWith(prefix))
  // HEAD runs the GET handler (and its side effect) too.
  if (method === 'GET' || method === 'HEAD') return GOVERNED_GETS.has(path)
  return false
}

/**
 * Whether a request is a governed control mutation. Both the decoded request path and the
 * matched route pattern are checked, so no spelling of the URL reaches a governed handler.
 */
export function isControlMutation(method: string, url: string, routePattern: string | undefined): boolean {
  const path = normalisedPathOf(url)
  if (path !== null && governedPath(method, path)) return true
  return routePattern !== undefined && governedPath(method, routePattern)
}

/** The switch: QUARTET_CONTROL_MUTATIONS=1 or `api.control_mutations: true` in the project config. */
export function controlMutationsEnabled(
  env: Readonly<Record<string, string | undefined>>,
  config: { api?: { control_mutations?: unknown } } | undefined
): boolean {
  return env[CONTROL_MUTATIONS_ENV] === '1' || config?.api?.control_mutations === true
}
