import { useQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { api, unwrap } from '../api/client'
import { Empty, ErrorBox, Loading, Section } from '../ui'

interface Entry {
  id: number
  type: string
  title: string
  content: string
  summary: string | null
  tags: string
  status: string
  priority: string
  sprint_num: number | null
  created_at: string
}

const TYPES = ['', 'sprint_summary', 'decision', 'nogo', 'debt', 'note']

export function Memory() {
  const [draft, setDraft] = useState({ q: '', type: '', sprintMin: '' })
  const [query, setQuery] = useState<typeof draft | null>(null)
  const [open, setOpen] = useState<number | null>(null)
  const results = useQuery({
    queryKey: ['memory', query],
    enabled: query !== null,
    queryFn: async () => {
      const q = query!
      const result = await api.GET('/api/memory/search', {
        params: { query: { q: q.q, ...(q.type ? { type: q.type } : {}), ...(q.sprintMin ? { sprint_min: q.sprintMin } : {}), limit: '50' } }
      })
      // Without v=1 the route answers the plain list of {entry, relevance}.
      return unwrap(result) as unknown as { entry: Entry; relevance: number }[]
    }
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setOpen(null)
    setQuery({ ...draft })
  }
  return (
    <Section title="Memory">
      <form className="search" onSubmit={submit} role="search">
        <label>
          Words <input value={draft.q} onChange={(e) => setDraft({ ...draft, q: e.target.value })} />
        </label>
        <label>
          Type
          <select value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.target.value })}>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t || 'any'}
              </option>
            ))}
          </select>
        </label>
        <label>
          From sprint{' '}
          <input
            inputMode="numeric"
            pattern="[0-9]*"
            size={4}
            value={draft.sprintMin}
            onChange={(e) => setDraft({ ...draft, sprintMin: e.target.value })}
          />
        </label>
        <button type="submit">Search</button>
      </form>
      {query === null ? (
        <Empty>Search the project&apos;s memory: sprint summaries, decisions, NO_GO reasons, debt and notes.</Empty>
      ) : results.isPending ? (
        <Loading />
      ) : results.error ? (
        <ErrorBox error={results.error} />
      ) : results.data!.length === 0 ? (
        <Empty>Nothing matches.</Empty>
      ) : (
        <ul className="memory" data-testid="memory-results">
          {results.data!.map(({ entry }) => (
            <li key={entry.id}>
              <button
                type="button"
                className="link"
                aria-expanded={open === entry.id}
                onClick={() => setOpen(open === entry.id ? null : entry.id)}
              >
                {entry.title}
              </button>{' '}
              <span className="muted">
                {entry.type} · {entry.status}
                {entry.sprint_num !== null ? ` · sprint ${entry.sprint_num}` : ''}
              </span>
              {open === entry.id && (
                <div className="entry">
                  {entry.tags && <p className="muted">tags: {entry.tags}</p>}
                  <pre>{entry.content}</pre>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </Section>
  )
}
