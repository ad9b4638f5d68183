/**
 * "The agent finished and its work is committed at <sha>": written durably right after the
 * commit and before the check runs, removed once the attempt has an outcome that re-running the
 * agent would not change (DONE or NO_GO). A checkpoint found when an attempt starts means the
 * previous attempt ended in the check (crash, kill -9, kill): if the worktree still holds exactly
 * that commit, only the check is run again, so the agent's work and cost are not repeated.
 */
import fs from 'node:fs'
import path from 'node:path'

export interface Checkpoint {
  taskId: string
  attempt: number
  commitSha: string
  branch: string
  filesChanged: string[]
  agentMs: number
  recordedAt: string
}

/** Next to the task's log: `<data>/orchestrator/logs/<sprint>/<task>.checkpoint.json`. */
export function checkpointFile(logFile: string): string {
  return path.join(path.dirname(logFile), `${path.basename(logFile, '.log')}.checkpoint.json`)
}

export function writeCheckpoint(logFile: string, checkpoint: Checkpoint): void {
  const file = checkpointFile(logFile)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.tmp`
  const fd = fs.openSync(temporary, 'w')
  try {
    fs.writeSync(fd, JSON.stringify(checkpoint))
    // The point of a checkpoint is to survive a crash: it is on disk before the check starts.
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  fs.renameSync(temporary, file)
}

export function readCheckpoint(logFile: string, taskId: string): Checkpoint | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(checkpointFile(logFile), 'utf8')) as Partial<Checkpoint>
    if (parsed.taskId !== taskId || typeof parsed.commitSha !== 'string' || typeof parsed.branch !== 'string') return null
    return {
      taskId,
      attempt: Number(parsed.attempt) || 0,
      commitSha: parsed.commitSha,
      branch: parsed.branch,
      filesChanged: Array.isArray(parsed.filesChanged) ? parsed.filesChanged.map(String) : [],
      agentMs: Number(parsed.agentMs) || 0,
      recordedAt: String(parsed.recordedAt ?? '')
    }
  } catch {
    return null
  }
}

export function clearCheckpoint(logFile: string): void {
  fs.rmSync(checkpointFile(logFile), { force: true })
}
