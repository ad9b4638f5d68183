/**
 * `quartet feed token`: one command that gives a login token — it signs the account up when it does
 * not exist yet (an existing one is fine), then logs in over the API and prints the token alone on
 * stdout, so `TOKEN=$(quartet feed token)` works. What happened goes to stderr.
 */
export interface FeedTokenOptions {
  api: string
  email: string
  name: string
  password: string
}

interface ErrorAnswer {
  message?: string
  data?: Array<{ msg?: string; message?: string }>
}

function reasonOf(status: number, body: unknown): string {
  const answer = (body ?? {}) as ErrorAnswer
  const details = (answer.data ?? []).map((d) => d.msg ?? d.message).filter(Boolean)
  return [answer.message ?? `HTTP ${status}`, ...details].join(': ')
}

async function call(url: string, method: string, body: unknown): Promise<{ status: number; body: unknown }> {
  let response: Response
  try {
    response = await fetch(url, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000)
    })
  } catch (error) {
    throw new Error(`cannot reach the feed API at ${url}: ${(error as Error).message} (is quartet serve feed running?)`, {
      cause: error
    })
  }
  const text = await response.text()
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = { message: text.slice(0, 200) }
  }
  return { status: response.status, body: parsed }
}

/** Signs up when needed, logs in, returns the token (throws an Error that says what went wrong). */
export async function feedToken(options: FeedTokenOptions, note: (line: string) => void): Promise<string> {
  const api = options.api.replace(/\/+$/, '')
  const signup = await call(`${api}/auth/signup`, 'PUT', { email: options.email, name: options.name, password: options.password })
  const exists = signup.status === 422 && /already exists/i.test(JSON.stringify(signup.body))
  if (signup.status === 201) note(`signed up ${options.email}`)
  else if (exists) note(`${options.email} already has an account: logging in`)
  else throw new Error(`sign-up refused (${signup.status}): ${reasonOf(signup.status, signup.body)}`)
  const login = await call(`${api}/auth/login`, 'POST', { email: options.email, password: options.password })
  const token = (login.body as { token?: unknown } | null)?.token
  if (login.status !== 200 || typeof token !== 'string') {
    const hint = exists && login.status === 401 ? ' (the account exists with another password: pass --password)' : ''
    throw new Error(`login refused (${login.status}): ${reasonOf(login.status, login.body)}${hint}`)
  }
  note(`token for ${options.email} (valid for one hour; use it as Authorization: Bearer <token>)`)
  return token
}
