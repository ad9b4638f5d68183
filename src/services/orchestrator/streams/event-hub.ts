import type { EventsRepository, StoredEvent } from '../state/events.repository.js'

export interface EventFilter {
  sprintId?: string
  taskId?: string
  types?: readonly string[]
}

export type HubDelivery =
  | { kind: 'event'; event: StoredEvent }
  /** Replay would have exceeded the cap: events fromSeq..toSeq were skipped. */
  | { kind: 'gap'; missed: number; fromSeq: number; toSeq: number }

export interface SubscribeOptions {
  projectId: number
  /** Replay everything after this sequence number first; undefined = live events only. */
  afterSeq?: number
  filter?: EventFilter
  /** Must not block; answer false when the consumer is gone and the subscription should end. */
  deliver(delivery: HubDelivery): boolean | void
}

export interface HubSubscription {
  close(): void
}

export interface EventHubOptions {
  events: Pick<EventsRepository, 'readAfter' | 'latestSeq'>
  pollMs?: number
  /** Events read and fanned out at once; with the stream's queue cap this bounds a burst. */
  batchSize?: number
  /** The most events one subscriber replays; older ones are reported as a gap. */
  replayCap?: number
  onError?: (error: unknown) => void
}

interface Subscriber {
  filter: EventFilter
  deliver: SubscribeOptions['deliver']
  lastSeq: number
  /** Live events that arrive while the subscriber is still replaying from the log. */
  pending: StoredEvent[] | null
  closed: boolean
}

interface Tailer {
  projectId: number
  cursor: number
  running: boolean
  starting: Promise<number> | null
  subscribers: Set<Subscriber>
  wake: (() => void) | null
}

function matches(filter: EventFilter, event: StoredEvent): boolean {
  if (filter.sprintId !== undefined && event.sprintId !== filter.sprintId) return false
  if (filter.taskId !== undefined && event.taskId !== filter.taskId) return false
  return filter.types === undefined || filter.types.length === 0 || filter.types.includes(event.type)
}

/**
 * Live events for every subscriber of a project from one tailer over the event log (which
 * detached jobs append to as well), polling only while somebody listens. Each subscriber keeps
 * the last sequence number it was given; replay and live delivery both go through it, which
 * makes the switch from replay to live free of gaps and duplicates.
 */
export function createEventHub(options: EventHubOptions) {
  const pollMs = options.pollMs ?? 50
  const batchSize = options.batchSize ?? 200
  const replayCap = options.replayCap ?? 5000
  const tailers = new Map<number, Tailer>()
  let shutDown = false

  function hand(subscriber: Subscriber, delivery: HubDelivery, tailer: Tailer): void {
    let keep: boolean | void
    try {
      keep = subscriber.deliver(delivery)
    } catch (error) {
      options.onError?.(error)
      keep = false
    }
    if (keep === false) {
      subscriber.closed = true
      tailer.subscribers.delete(subscriber)
    }
  }

  function offer(subscriber: Subscriber, event: StoredEvent, tailer: Tailer): void {
    if (subscriber.closed || event.seq <= subscriber.lastSeq) return
    subscriber.lastSeq = event.seq
    if (matches(subscriber.filter, event)) hand(subscriber, { kind: 'event', event }, tailer)
  }

  function fanOut(tailer: Tailer, events: StoredEvent[]): void {
    for (const subscriber of tailer.subscribers) {
      if (subscriber.pending) subscriber.pending.push(...events)
      else for (const event of events) offer(subscriber, event, tailer)
    }
  }

  async function pause(tailer: Tailer): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pollMs)
      tailer.wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })
    tailer.wake = null
  }

  async function run(tailer: Tailer): Promise<void> {
    while (tailer.subscribers.size > 0 && !shutDown) {
      let full = false
      try {
        const events = await options.events.readAfter(tailer.projectId, tailer.cursor, batchSize)
        if (events.length > 0) {
          tailer.cursor = (events[events.length - 1] as StoredEvent).seq
          fanOut(tailer, events)
        }
        full = events.length === batchSize
      } catch (error) {
        options.onError?.(error)
      }
      // After a full batch, let sockets flush before the next one, so a burst stays one batch deep.
      if (full) await new Promise((resolve) => setImmediate(resolve))
      else await pause(tailer)
    }
    tailer.running = false
  }

  function tailerFor(projectId: number): Tailer {
    let tailer = tailers.get(projectId)
    if (!tailer) {
      tailer = { projectId, cursor: 0, running: false, starting: null, subscribers: new Set(), wake: null }
      tailers.set(projectId, tailer)
    }
    return tailer
  }

  /** Joins the tailer; a tailer that was idle starts from the log's current end. */
  async function attach(tailer: Tailer, subscriber: Subscriber): Promise<void> {
    if (!tailer.running) {
      tailer.starting ??= options.events.latestSeq(tailer.projectId).finally(() => {
        tailer.starting = null
      })
      const latest = await tailer.starting
      if (!tailer.running) tailer.cursor = latest
    }
    if (subscriber.pending === null) subscriber.lastSeq = tailer.cursor
    tailer.subscribers.add(subscriber)
    if (!tailer.running) {
      tailer.running = true
      void run(tailer)
    }
  }

  async function replay(tailer: Tailer, subscriber: Subscriber, projectId: number): Promise<void> {
    const latest = await options.events.latestSeq(projectId)
    if (latest - subscriber.lastSeq > replayCap) {
      const toSeq = latest - replayCap
      hand(subscriber, { kind: 'gap', missed: toSeq - subscriber.lastSeq, fromSeq: subscriber.lastSeq + 1, toSeq }, tailer)
      subscriber.lastSeq = toSeq
    }
    const dbFilter = {
      ...(subscriber.filter.sprintId ? { sprintId: subscriber.filter.sprintId } : {}),
      ...(subscriber.filter.taskId ? { taskId: subscriber.filter.taskId } : {})
    }
    for (;;) {
      if (subscriber.closed) return
      const events = await options.events.readAfter(projectId, subscriber.lastSeq, batchSize, dbFilter)
      for (const event of events) offer(subscriber, event, tailer)
      if (events.length < batchSize) break
    }
    // Everything committed before the last read was replayed; later events wait in pending.
    const pending = subscriber.pending ?? []
    subscriber.pending = null
    for (const event of pending) offer(subscriber, event, tailer)
  }

  return {
    async subscribe(subscribe: SubscribeOptions): Promise<HubSubscription> {
      if (shutDown) throw new Error('event hub is closed')
      const tailer = tailerFor(subscribe.projectId)
      const replaying = subscribe.afterSeq !== undefined
      const subscriber: Subscriber = {
        filter: subscribe.filter ?? {},
        deliver: subscribe.deliver,
        lastSeq: subscribe.afterSeq ?? 0,
        pending: replaying ? [] : null,
        closed: false
      }
      const close = () => {
        subscriber.closed = true
        tailer.subscribers.delete(subscriber)
      }
      await attach(tailer, subscriber)
      if (replaying) {
        try {
          await replay(tailer, subscriber, subscribe.projectId)
        } catch (error) {
          close()
          throw error
        }
      }
      return { close }
    },

    /** Polls at once (call after this process appended), instead of at the next interval. */
    notify(projectId?: number): void {
      for (const tailer of tailers.values()) if (projectId === undefined || tailer.projectId === projectId) tailer.wake?.()
    },

    subscriberCount(projectId: number): number {
      return tailers.get(projectId)?.subscribers.size ?? 0
    },

    close(): void {
      shutDown = true
      for (const tailer of tailers.values()) {
        for (const subscriber of tailer.subscribers) subscriber.closed = true
        tailer.subscribers.clear()
        tailer.wake?.()
      }
    }
  }
}
export type EventHub = ReturnType<typeof createEventHub>
