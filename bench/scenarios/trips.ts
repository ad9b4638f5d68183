import type { ServiceBench } from '../types.js'

const PREFIX = '/api/private/v1'

async function post(url: string, token: string, body: unknown): Promise<{ data: { id: string } }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body)
  })
  if (response.status !== 200) throw new Error(`POST ${url} → ${response.status} ${await response.text()}`)
  return (await response.json()) as { data: { id: string } }
}

export const bench: ServiceBench = {
  service: 'trips',
  async setup({ baseUrl, cli }) {
    const token = (await cli(['token', 'trips', '--email', 'bench@example.com'])).trim()
    const api = `${baseUrl}${PREFIX}`
    const user = await post(`${api}/user`, token, { user_name: 'bench', email_address: 'bench@example.com' })
    const userId = user.data.id
    let tourId = ''
    for (let i = 0; i < 20; i++) {
      tourId = (await post(`${api}/user/${userId}/tour`, token, { date: '2027-01-15', location: `Peak ${i}` })).data.id
    }
    const headers = { authorization: `Bearer ${token}` }
    return [
      {
        kind: 'http',
        name: `GET ${PREFIX}/tour/{id} (authenticated)`,
        method: 'GET',
        path: `${PREFIX}/tour/${tourId}`,
        headers,
        target: { minRatio: 0.3, maxP99Ms: 10 }
      },
      { kind: 'http', name: `GET ${PREFIX}/user/{user_id}/tour (20 tours)`, method: 'GET', path: `${PREFIX}/user/${userId}/tour`, headers },
      {
        kind: 'http',
        name: `POST ${PREFIX}/user/{id}/tour`,
        method: 'POST',
        path: `${PREFIX}/user/${userId}/tour`,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ date: '2027-02-01', location: 'Bench Couloir' }),
        target: { minRatio: 0.1 }
      }
    ]
  }
}
