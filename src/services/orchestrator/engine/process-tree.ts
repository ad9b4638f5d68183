/**
 * The full descendant set of an agent: its process group plus every process that carries its
 * marks in its environment. A process group misses descendants that called setsid() (or
 * setpgid) and those whose parent died (re-parented to init); an environment variable is
 * inherited through fork/exec, setsid and double forks alike, so a mark finds them all.
 */
import fs from 'node:fs'

/** Environment variable set to the job's mark in every agent it starts (see jobMark). */
export const JOB_MARK_VAR = 'QUARTET_JOB_MARK'
/** Environment variable set to a fresh mark in every process runProcess starts. */
export const PROCESS_MARK_VAR = 'QUARTET_PROC_MARK'

/** A set of `NAME=value` entries that must all be present in a process's environment. */
export type Mark = readonly string[]

export interface ProcessTree {
  /** Process groups to signal as a whole (the agents' own groups). */
  pgids?: readonly number[]
  marks: readonly Mark[]
}

const POLL_MS = 50
const HARD_KILL_WAIT_MS = 5000

/** The mark of a job: its id and the instant it was queued, so a job of another database with the same id is not taken for it. */
export function jobMark(job: { id: number; createdAt: string }): string {
  return `${job.id}.${Date.parse(job.createdAt).toString(36)}`
}

/** Pids (not this process, not zombies) whose environment holds every entry of one of the marks; [] without /proc. */
export function markedProcesses(marks: readonly Mark[]): number[] {
  if (marks.length === 0) return []
  let entries: string[]
  try {
    entries = fs.readdirSync('/proc')
  } catch {
    return []
  }
  const found: number[] = []
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    const pid = Number(entry)
    if (pid === process.pid) continue
    let environ: string
    try {
      environ = fs.readFileSync(`/proc/${entry}/environ`, 'latin1')
    } catch {
      continue // gone meanwhile, or another user's process
    }
    if (environ.length === 0) continue // zombies and kernel threads have none
    const vars = new Set(environ.split('\0'))
    if (marks.some((mark) => mark.every((entry) => vars.has(entry))) && !isZombie(pid)) found.push(pid)
  }
  return found
}

/**
 * SIGTERM to the group and every marked process, SIGKILL after graceMs to whatever of them is
 * left (found again, so processes started during the grace go too); resolves once none is
 * left or 5 s after the SIGKILL. Answers the pids that were signalled.
 */
export async function killProcessTree(tree: ProcessTree, graceMs: number): Promise<number[]> {
  const signalled = new Set<number>()
  const members = () => {
    const pids = markedProcesses(tree.marks)
    for (const pgid of tree.pgids ?? []) if (groupExists(pgid)) pids.push(-pgid)
    return pids
  }
  const send = (signal: NodeJS.Signals) => {
    const targets = members()
    for (const pid of targets) if (signal_(pid, signal)) signalled.add(Math.abs(pid))
    return targets.length
  }
  if (send('SIGTERM') === 0) return []
  const deadline = Date.now() + graceMs
  while (Date.now() < deadline && members().length > 0) await sleep(Math.min(POLL_MS, Math.max(1, deadline - Date.now())))
  if (send('SIGKILL') > 0) {
    const hardDeadline = Date.now() + HARD_KILL_WAIT_MS
    while (Date.now() < hardDeadline && members().length > 0) {
      await sleep(POLL_MS)
      send('SIGKILL')
    }
  }
  return [...signalled].sort((a, b) => a - b)
}

function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
  } catch {
    return false
  }
  return groupHasLiveMember(pgid)
}

function groupHasLiveMember(pgid: number): boolean {
  let entries: string[]
  try {
    entries = fs.readdirSync('/proc')
  } catch {
    return true
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    const stat = readStat(entry)
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') return true
  }
  return false
}

function isZombie(pid: number): boolean {
  const state = readStat(String(pid))?.state
  return state === 'Z' || state === 'X'
}

function readStat(pid: string): { state: string; pgrp: number } | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { state: fields[0] ?? '', pgrp: Number(fields[2]) }
  } catch {
    return undefined
  }
}

function signal_(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal)
    return true
  } catch {
    return false
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
