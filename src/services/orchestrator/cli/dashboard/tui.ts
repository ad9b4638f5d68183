/**
 * The full-screen terminal dashboard (Ink). Written with createElement rather than JSX so the
 * server's TypeScript settings stay as they are. Keys: ↑/↓ select, Enter a task's log, `a` the
 * approvals (decided with the request id typed back), Esc back, `q` quit.
 */
import { Box, render, Text, useApp, useInput, useStdout, type RenderOptions } from 'ink'
import { createElement as h, useEffect, useRef, useState, type ReactElement } from 'react'
import type { LinkState } from './client.js'
import type { DashboardData, DashboardSource } from './data.js'
import { fit, needsYou, progressLine, taskLine } from './model.js'

type Mode =
  | { kind: 'list' }
  | { kind: 'log'; taskId: string }
  | { kind: 'approvals' }
  | { kind: 'confirm'; id: string; decision: 'allow' | 'deny'; typed: string }

const LINK_COLOR: Record<LinkState, string> = { open: 'green', connecting: 'yellow', reconnecting: 'yellow', refused: 'red', closed: 'red' }

export interface DashboardProps {
  source: DashboardSource
  /** Renders from this data (a benchmark or a test) instead of subscribing. */
  initial?: DashboardData
  subscribe?: (listener: (data: DashboardData) => void) => () => void
}

function useNow(): number {
  const [now, setNow] = useState(Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  return now
}

function LogPane({ source, taskId, rows, width }: { source: DashboardSource; taskId: string; rows: number; width: number }): ReactElement {
  const [lines, setLines] = useState<string[]>([])
  const [state, setState] = useState<LinkState>('connecting')
  useEffect(() => {
    const follow = source.followLog(taskId, (next, link) => {
      setLines(next)
      setState(link)
    })
    return () => follow.close()
  }, [source, taskId])
  const shown = lines.slice(-Math.max(1, rows))
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, { bold: true }, fit(`log ${taskId} (${state}, ${lines.length} lines) · Esc back`, width)),
    ...(shown.length === 0
      ? [h(Text, { key: 'none', dimColor: true }, 'no log lines yet')]
      : shown.map((line, i) => h(Text, { key: i, wrap: 'truncate' }, line)))
  )
}

export function Dashboard({ source, initial, subscribe }: DashboardProps): ReactElement {
  const { exit } = useApp()
  const { stdout } = useStdout()
  const [data, setData] = useState<DashboardData>(initial ?? source.data)
  const [mode, setMode] = useState<Mode>({ kind: 'list' })
  const [selected, setSelected] = useState(0)
  const [approval, setApproval] = useState(0)
  const [message, setMessage] = useState<string | null>(null)
  // The id typed back, kept outside React state: a pasted id and the Enter after it can arrive
  // before the next render, and Enter must see every key typed so far.
  const typedBack = useRef('')
  const now = useNow()
  useEffect(() => subscribe?.(setData), [subscribe])

  const width = Math.max(40, stdout.columns || 80)
  const height = Math.max(12, stdout.rows || 24)
  const tasks = data.tasks
  const needs = needsYou(data.status, tasks, data.approvals, data.merges)
  const clamp = (i: number, n: number) => Math.max(0, Math.min(n - 1, i))

  useInput((input, key) => {
    if (mode.kind === 'confirm') {
      if (key.escape) return setMode({ kind: 'approvals' })
      // A paste (or keys typed faster than the terminal is read) can bring the id and its Enter
      // in one chunk: the text before the line break is typed, the break submits.
      const lineBreak = key.ctrl || key.meta ? -1 : input.search(/[\r\n]/)
      if (lineBreak > 0) typedBack.current += input.slice(0, lineBreak)
      if (key.return || lineBreak !== -1) {
        if (typedBack.current.trim() !== mode.id) {
          setMessage('the id typed back does not match: nothing decided')
          return setMode({ kind: 'approvals' })
        }
        void source.decide(mode.id, mode.decision).then(setMessage)
        return setMode({ kind: 'approvals' })
      }
      if (key.backspace || key.delete) typedBack.current = typedBack.current.slice(0, -1)
      else if (input && !key.ctrl && !key.meta) typedBack.current += input
      else return
      const typed = typedBack.current
      return setMode((m) => (m.kind === 'confirm' ? { ...m, typed } : m))
    }
    if (input === 'q') return exit()
    if (key.escape) {
      setMessage(null)
      return setMode({ kind: 'list' })
    }
    if (input === 'a') return setMode({ kind: 'approvals' })
    if (mode.kind === 'approvals') {
      if (key.upArrow) setApproval((i) => clamp(i - 1, data.approvals.length))
      if (key.downArrow) setApproval((i) => clamp(i + 1, data.approvals.length))
      const target = data.approvals[clamp(approval, data.approvals.length)]
      if (target && (input === 'y' || input === 'n')) {
        typedBack.current = ''
        setMode({ kind: 'confirm', id: target.request.id, decision: input === 'y' ? 'allow' : 'deny', typed: '' })
      }
      return
    }
    if (mode.kind === 'list') {
      if (key.upArrow) setSelected((i) => clamp(i - 1, tasks.length))
      if (key.downArrow) setSelected((i) => clamp(i + 1, tasks.length))
      const task = tasks[clamp(selected, tasks.length)]
      if (key.return && task) setMode({ kind: 'log', taskId: task.id })
    }
  })

  const title = data.status?.sprint.title ?? '(no sprint)'
  const header = h(
    Box,
    { key: 'head', justifyContent: 'space-between' },
    h(Text, { bold: true }, fit(`Quartet · ${title}`, width - 16)),
    h(Text, { color: LINK_COLOR[data.link] }, fit(data.link, 14))
  )
  const progress = h(Text, { key: 'progress', wrap: 'truncate' }, progressLine(data.status))
  const footer = h(
    Text,
    { key: 'foot', dimColor: true, wrap: 'truncate' },
    message ?? data.error ?? (mode.kind === 'list' ? '↑↓ select · Enter log · a approvals · q quit' : 'Esc back · q quit')
  )

  let body: ReactElement
  if (mode.kind === 'log') {
    body = h(LogPane, { key: 'log', source, taskId: mode.taskId, rows: height - 5, width })
  } else if (mode.kind === 'approvals' || mode.kind === 'confirm') {
    const list = data.approvals
    body = h(
      Box,
      { key: 'approvals', flexDirection: 'column' },
      h(Text, { bold: true }, `Pending approvals (${list.length}) · y allow · n deny · Esc back`),
      ...(list.length === 0
        ? [h(Text, { key: 'none', dimColor: true }, 'no approval request is waiting')]
        : list
            .slice(0, height - 8)
            .map((a, i) =>
              h(
                Text,
                { key: a.request.id, inverse: i === clamp(approval, list.length), wrap: 'truncate' },
                `${a.request.id} ${a.request.risk} ${a.request.taskId ?? ''} ${a.request.summary}`
              )
            )),
      mode.kind === 'confirm'
        ? h(Text, { key: 'confirm', color: 'yellow' }, `type ${mode.id} to ${mode.decision}, Enter: ${mode.typed}`)
        : null
    )
  } else {
    const needRows = needs.slice(0, 4)
    const taskRows = Math.max(3, height - 7 - Math.max(1, needRows.length))
    const sel = clamp(selected, tasks.length)
    const start = Math.max(0, Math.min(sel - Math.floor(taskRows / 2), tasks.length - taskRows))
    body = h(
      Box,
      { key: 'list', flexDirection: 'column' },
      h(Text, { bold: true, color: needs.length > 0 ? 'yellow' : undefined }, `Needs you (${needs.length})`),
      ...(needRows.length === 0
        ? [h(Text, { key: 'needs-none', dimColor: true }, ' nothing right now')]
        : needRows.map((n, i) =>
            h(Text, { key: `n${i}`, wrap: 'truncate' }, fit(` ${n.kind}: ${n.text}`, width - n.action.length - 3) + ` ${n.action}`)
          )),
      h(Text, { bold: true }, fit(`Tasks (${tasks.length})  ID       STATUS     AGENT    ELAPSED TRY TOKENS  COST    TITLE`, width)),
      ...(tasks.length === 0
        ? [h(Text, { key: 'tasks-none', dimColor: true }, ' no sprint planned yet (quartet plan)')]
        : tasks.slice(start, start + taskRows).map((t, i) => h(Text, { key: t.id, inverse: start + i === sel }, taskLine(t, now, width))))
    )
  }
  return h(Box, { flexDirection: 'column', width }, header, progress, body, footer)
}

export function runTui(source: DashboardSource, options: RenderOptions = {}) {
  const listeners = new Set<(data: DashboardData) => void>()
  const subscribe = (listener: (data: DashboardData) => void) => {
    listeners.add(listener)
    return () => listeners.delete(listener)
  }
  const instance = render(h(Dashboard, { source, subscribe }), { exitOnCtrlC: true, ...options })
  return { instance, publish: (data: DashboardData) => listeners.forEach((l) => l(data)) }
}
