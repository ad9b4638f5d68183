import { request } from 'node:http'

/** What a Quartet server's /health tells a loopback caller about itself. */
interface HealthBody {
  service?: unknown
  pid?: unknown
  projectRoot?: unknown
}

/**
 * A sentence naming what holds `host:port`, for the "cannot listen" error: a Quartet server
 * answers /health with its service (and, for the orchestrator, its pid and project); anything
 * else is named as another program with the command that finds it.
 */
export async function describePortHolder(host: string, port: number, timeoutMs = 1000): Promise<string> {
  const body = await probeHealth(host, port, timeoutMs)
  const find = `find it with: ss -ltnp 'sport = :${port}'`
  if (!body) return `another program holds port ${port} (${find})`
  if (typeof body.projectRoot === 'string') {
    const pid = typeof body.pid === 'number' ? ` (pid ${body.pid})` : ''
    return `a Quartet orchestrator${pid} for the project ${body.projectRoot} already listens on port ${port}`
  }
  if (typeof body.service === 'string') return `Quartet's ${body.service} service already listens on port ${port} (${find})`
  return `another program holds port ${port} (${find})`
}

function probeHealth(host: string, port: number, timeoutMs: number): Promise<HealthBody | null> {
  const target = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.replace(/^\[(.*)\]$/, '$1')
  return new Promise((resolve) => {
    const req = request({ host: target, port, path: '/health', method: 'GET', timeout: timeoutMs }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
        if (text.length > 64 * 1024) req.destroy()
      })
      res.on('end', () => {
        try {
          const parsed = JSON.parse(text) as unknown
          resolve(typeof parsed === 'object' && parsed !== null ? (parsed as HealthBody) : null)
        } catch {
          resolve(null)
        }
      })
      res.on('error', () => resolve(null))
    })
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolve(null))
    req.end()
  })
}
