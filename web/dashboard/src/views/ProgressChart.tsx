import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import type { Task } from '../api/queries'

/** Tasks finished over time (done and not), from the tasks' own finish times: no extra request. */
export function ProgressChart({ tasks }: { tasks: Task[] }) {
  const box = useRef<HTMLDivElement>(null)
  const finished = tasks.filter((t) => t.finishedAt).map((t) => ({ at: Date.parse(t.finishedAt!) / 1000, done: t.status === 'DONE' }))
  finished.sort((a, b) => a.at - b.at)
  // The line starts at zero when the first task started.
  const starts = tasks.filter((t) => t.startedAt).map((t) => Date.parse(t.startedAt!) / 1000)
  const origin = Math.min(...starts, ...finished.map((f) => f.at))
  const key = `${origin}:${finished.map((f) => `${f.at}${f.done ? 1 : 0}`).join(',')}`

  useEffect(() => {
    const element = box.current
    if (!element || finished.length === 0) return
    const xs: number[] = [origin]
    const done: number[] = [0]
    const other: number[] = [0]
    let d = 0
    let o = 0
    for (const f of finished) {
      if (f.done) d += 1
      else o += 1
      xs.push(f.at)
      done.push(d)
      other.push(o)
    }
    const width = Math.max(240, Math.min(900, element.clientWidth || 600))
    const chart = new uPlot(
      {
        width,
        height: 160,
        // At least a minute wide, so one finished task does not stretch the axis over years.
        scales: { x: { time: true, range: (_u, min, max) => [min, Math.max(max, min + 60)] } },
        series: [{}, { label: 'done', stroke: '#2e7d32', width: 2 }, { label: 'no-go / other', stroke: '#c62828', width: 2 }],
        axes: [{}, { label: 'tasks' }]
      },
      [xs, done, other],
      element
    )
    return () => chart.destroy()
    // The key holds everything the chart is drawn from.
  }, [key])

  if (finished.length === 0) return <p className="muted">No task has finished yet: the progress chart starts with the first one.</p>
  return (
    <div
      ref={box}
      className="chart"
      role="img"
      aria-label={`Progress: ${finished.filter((f) => f.done).length} of ${tasks.length} tasks done`}
    />
  )
}
