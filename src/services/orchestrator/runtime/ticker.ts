/**
 * Runs a background tick beside the HTTP server (the autonomous engine, the nervous detectors):
 * every `intervalMs()` (read again after each tick, so a config change needs no restart), never
 * two ticks at once. The first tick comes right after start: the autonomous engine fires the
 * slots missed while no server ran then.
 */
export interface Ticker {
  tick(): Promise<unknown>
}

export function startTicker(options: { ticker: Ticker; intervalMs: () => number; onError: (error: unknown) => void }) {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  const schedule = (ms: number) => {
    if (stopped) return
    timer = setTimeout(run, ms)
    timer.unref()
  }
  const run = () => {
    options.ticker
      .tick()
      .catch(options.onError)
      .finally(() => {
        let ms = 15_000
        try {
          ms = options.intervalMs()
        } catch (error) {
          options.onError(error)
        }
        schedule(ms)
      })
  }
  schedule(0)
  return {
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
    }
  }
}
