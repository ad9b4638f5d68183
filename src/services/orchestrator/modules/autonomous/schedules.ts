/**
 * Cron schedules of the autonomous backlog. A schedule's last fired slot is stored; every tick
 * (and the first one after a start) walks the slots after it up to now, so a slot that came while
 * no server ran is fired late rather than missed, and a slot fires once: its row is keyed by the
 * slot itself.
 */
import { Cron } from 'croner'
import type { ProjectConfig } from '../../project/config-schema.js'

export type ScheduleConfig = ProjectConfig['autonomous']['schedules'][number]

/** Slots caught up per schedule and tick: a long outage of a per-minute schedule catches up over several ticks. */
export const MAX_SLOTS_PER_TICK = 500

/** The pattern as croner reads it (throws on an invalid expression or time zone). */
export function cronOf(schedule: ScheduleConfig): Cron {
  return new Cron(schedule.cron, { timezone: schedule.timezone ?? 'UTC', paused: true })
}

/** The schedule's slots strictly after `after` and not later than `now`, oldest first. */
export function dueSlots(schedule: ScheduleConfig, after: Date, now: Date, max = MAX_SLOTS_PER_TICK): Date[] {
  const cron = cronOf(schedule)
  const slots: Date[] = []
  let next = cron.nextRun(after)
  while (next !== null && next.getTime() <= now.getTime() && slots.length < max) {
    slots.push(next)
    next = cron.nextRun(next)
  }
  return slots
}

/** The next slot after `now`, or null for an expression that never fires again. */
export function nextSlot(schedule: ScheduleConfig, now: Date): Date | null {
  return cronOf(schedule).nextRun(now)
}
