/** The login kept in localStorage with its expiry (the token lives one hour, as the API issues it). */
export interface Session {
  token: string
  userId: string
  expiresAt: number
}

const KEY = 'quartet-feed-session'
export const SESSION_MS = 60 * 60 * 1000

export function loadSession(): Session | null {
  try {
    const raw = localStorage.getItem(KEY)
    if (!raw) return null
    const session = JSON.parse(raw) as Session
    if (typeof session.token !== 'string' || typeof session.expiresAt !== 'number' || session.expiresAt <= Date.now()) {
      localStorage.removeItem(KEY)
      return null
    }
    return session
  } catch {
    return null
  }
}

export function saveSession(token: string, userId: string): Session {
  const session = { token, userId, expiresAt: Date.now() + SESSION_MS }
  localStorage.setItem(KEY, JSON.stringify(session))
  return session
}

export function clearSession(): void {
  localStorage.removeItem(KEY)
}
