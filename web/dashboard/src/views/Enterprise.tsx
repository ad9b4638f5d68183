import { useQuery } from '@tanstack/react-query'
import { api, ApiError, unwrap } from '../api/client'
import { Empty, ErrorBox, Loading, Section } from '../ui'

/** One read of /api/enterprise; a 403 (the caller's role may not read it) is said as such. */
function Denied({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.status === 403) return <Empty>Your role may not read this ({error.message}).</Empty>
  return <ErrorBox error={error} />
}

const useRead = <T,>(key: string, read: () => Promise<T>) => useQuery({ queryKey: ['enterprise', key], queryFn: read, retry: false })

/** Enterprise administration, read-only: tenants, roles, rate rules and the audit log with its chain's verification. */
export function Enterprise() {
  const tenants = useRead('tenants', async () => unwrap(await api.GET('/api/enterprise/tenants')))
  const roles = useRead('rbac', async () => unwrap(await api.GET('/api/enterprise/rbac')))
  const rate = useRead('rate', async () => unwrap(await api.GET('/api/enterprise/rate')))
  const audit = useRead('audit', async () => unwrap(await api.GET('/api/enterprise/audit', { params: { query: { limit: 50 } } })))
  const chain = useRead('audit-verify', async () => unwrap(await api.GET('/api/enterprise/audit/verify')))
  return (
    <>
      <Section title="Audit chain">
        {chain.isPending ? (
          <Loading />
        ) : chain.error ? (
          <Denied error={chain.error} />
        ) : (
          <p data-testid="audit-chain" data-ok={String(chain.data.ok)}>
            {chain.data.ok
              ? `Intact: ${chain.data.records} records verified.`
              : `Broken at record ${chain.data.firstBroken?.seq ?? '?'} (${chain.data.firstBroken?.reason ?? 'unknown'}) ` +
                `of ${chain.data.records}.`}
          </p>
        )}
      </Section>
      <Section title="Tenants">
        {tenants.isPending ? (
          <Loading />
        ) : tenants.error ? (
          <Denied error={tenants.error} />
        ) : tenants.data.length === 0 ? (
          <Empty>No tenant: everything runs as the local tenant.</Empty>
        ) : (
          <ul className="files" data-testid="tenants">
            {tenants.data.map((t) => (
              <li key={t.id}>
                <span className="mono">{t.id}</span> {t.name} · {t.status} · {t.users} users
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Roles">
        {roles.isPending ? (
          <Loading />
        ) : roles.error ? (
          <Denied error={roles.error} />
        ) : (
          <ul className="files" data-testid="roles">
            {roles.data.map((r) => (
              <li key={r.role} data-role={r.role}>
                <strong>{r.role}</strong> {r.builtIn ? <span className="muted">(built in)</span> : null}:{' '}
                <span className="mono">{r.permissions.join(', ') || '–'}</span>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Rate rules">
        {rate.isPending ? (
          <Loading />
        ) : rate.error ? (
          <Denied error={rate.error} />
        ) : rate.data.length === 0 ? (
          <Empty>No rate rule.</Empty>
        ) : (
          <ul className="files" data-testid="rate-rules">
            {rate.data.map((r) => (
              <li key={r.id ?? r.endpoint}>
                <span className="mono">{r.endpoint}</span>: {r.limit} per window, {r.remaining} left until{' '}
                {new Date(r.resetAt).toLocaleTimeString()}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Audit log (newest 50)">
        {audit.isPending ? (
          <Loading />
        ) : audit.error ? (
          <Denied error={audit.error} />
        ) : audit.data.length === 0 ? (
          <Empty>No audit record yet.</Empty>
        ) : (
          <div className="table-wrap">
            <table data-testid="audit">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">When</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Action</th>
                  <th scope="col">Resource</th>
                  <th scope="col">Gate</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {audit.data.map((a) => (
                  <tr key={a.id} data-action={a.action}>
                    <td className="mono">{a.seq}</td>
                    <td>{new Date(a.timestamp).toLocaleString()}</td>
                    <td className="mono">{a.actor}</td>
                    <td className="mono">{a.action}</td>
                    <td className="mono">{a.resource}</td>
                    <td>{a.gate}</td>
                    <td>
                      {a.result} ({a.status})
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </>
  )
}
