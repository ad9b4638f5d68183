import { useState, type FormEvent } from 'react'
import { ErrorBanner, problemOf, type Problem } from './App'

function useSubmit(action: () => Promise<void>) {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<Problem | null>(null)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setProblem(null)
    try {
      await action()
    } catch (error) {
      setProblem(problemOf(error))
      setBusy(false)
    }
  }
  return { busy, problem, setProblem, submit }
}

export function LoginForm({ onLogin }: { onLogin: (email: string, password: string) => Promise<void> }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const { busy, problem, setProblem, submit } = useSubmit(() => onLogin(email, password))
  return (
    <form className="card auth" onSubmit={(e) => void submit(e)} data-testid="login-form">
      <h1>Log in</h1>
      <ErrorBanner problem={problem} onClose={() => setProblem(null)} />
      <label>
        E-mail
        <input type="email" name="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="email" />
      </label>
      <label>
        Password
        <input
          type="password"
          name="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
          autoComplete="current-password"
        />
      </label>
      <button type="submit" disabled={busy}>
        {busy ? 'Logging in…' : 'Log in'}
      </button>
    </form>
  )
}

export function SignupForm({ onSignup }: { onSignup: (email: string, name: string, password: string) => Promise<void> }) {
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const { busy, problem, setProblem, submit } = useSubmit(() => onSignup(email, name, password))
  return (
    <form className="card auth" onSubmit={(e) => void submit(e)} data-testid="signup-form">
      <h1>Sign up</h1>
      <ErrorBanner problem={problem} onClose={() => setProblem(null)} />
      <label>
        E-mail
        <input type="email" name="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="email" />
      </label>
      <label>
        Your name
        <input type="text" name="name" value={name} onChange={(e) => setName(e.target.value)} required autoComplete="name" />
      </label>
      <label>
        Password (at least 5 characters)
        <input
          type="password"
          name="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
          minLength={5}
          autoComplete="new-password"
        />
      </label>
      <button type="submit" disabled={busy}>
        {busy ? 'Signing up…' : 'Sign up'}
      </button>
    </form>
  )
}
