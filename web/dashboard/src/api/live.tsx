/**
 * One multiplexed stream (/api/events) keeps every view current: each event refreshes the queries
 * on screen (coalesced), a reopened stream refreshes everything once, and events are kept by
 * sequence number so a replay after a reconnect never shows one twice.
 */
import { useQueryClient } from '@tanstack/react-query'
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react'
import { openStream, type StreamState } from './sse'

export interface LiveEvent {
  seq: number
  type: string
  sprintId: string | null
  taskId: string | null
  data: Record<string, unknown>
  createdAt: string
}

interface Live {
  state: StreamState
  /** The newest events, newest first, one per sequence number. */
  events: LiveEvent[]
}

const LiveContext = createContext<Live>({ state: 'connecting', events: [] })
const KEPT = 200
const COALESCE_MS = 300

export function LiveProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient()
  const [state, setState] = useState<StreamState>('connecting')
  const [events, setEvents] = useState<LiveEvent[]>([])
  const seen = useRef(new Set<number>())

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const refresh = () => {
      if (timer) return
      timer = setTimeout(() => {
        timer = undefined
        void queryClient.invalidateQueries()
      }, COALESCE_MS)
    }
    const stream = openStream({
      url: '/api/events',
      resumable: true,
      onState: setState,
      onOpen: (reconnected) => {
        if (reconnected) refresh()
      },
      onFrame: (frame) => {
        if (frame.event === 'gap') return refresh()
        let event: LiveEvent
        try {
          event = JSON.parse(frame.data) as LiveEvent
        } catch {
          return
        }
        if (typeof event.seq !== 'number' || seen.current.has(event.seq)) return
        seen.current.add(event.seq)
        setEvents((list) => [event, ...list].slice(0, KEPT))
        // A heartbeat changes only the beating task's detail; refreshing every view on each one would
        // ask the server four times a minute per running agent for nothing new.
        if (event.type === 'task_heartbeat') {
          if (event.taskId) void queryClient.invalidateQueries({ queryKey: ['task', event.taskId] })
          return
        }
        refresh()
      }
    })
    return () => {
      if (timer) clearTimeout(timer)
      stream.close()
    }
  }, [queryClient])

  return <LiveContext.Provider value={{ state, events }}>{children}</LiveContext.Provider>
}

export function useLive(): Live {
  return useContext(LiveContext)
}
