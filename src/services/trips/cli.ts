import type { Command } from 'commander'
import type { CliRuntime } from '../../core/service.js'
import { tripsConfig } from './config.js'

const TTL = /^(\d+)([smhd]?)$/
const UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }

export function parseTtl(text: string): number {
  const match = TTL.exec(text.trim())
  if (!match) throw new Error(`--ttl must look like 3600, 30m, 12h or 7d (got ${JSON.stringify(text)})`)
  return Number(match[1]) * (UNIT_SECONDS[match[2] ?? ''] ?? 1)
}

/** `quartet trips token`: a development token signed with the local key (no identity provider configured). */
export function tripsCommands(program: Command, runtime: CliRuntime): void {
  const trips = program.command('trips').description('trips tools')
  trips
    .command('token')
    .description('print a development token (when no identity provider is configured)')
    .requiredOption('--email <email>', 'e-mail address the token identifies')
    .option('--ttl <duration>', 'lifetime: seconds, or 30m / 12h / 7d', '12h')
    .option('--data-dir <dir>', 'data directory holding the development key (QUARTET_DATA_DIR)')
    .action(async (options: { email: string; ttl: string; dataDir?: string }) => {
      const config = runtime.loadConfig({ QUARTET_DATA_DIR: options.dataDir }, [tripsConfig])
      const settings = config.services.trips as ReturnType<typeof tripsConfig.resolve>
      if (settings.jwksUrl) {
        process.stderr.write(
          `trips verifies tokens of ${settings.issuer} (TRIPS_JWKS_URL is set): get a token from that identity provider.\n`
        )
        process.exit(2)
      }
      if (!/^[^\s@]+@[^\s@]+$/.test(options.email)) {
        process.stderr.write(`--email must be an e-mail address (got ${JSON.stringify(options.email)})\n`)
        process.exit(2)
      }
      let ttl: number
      try {
        ttl = parseTtl(options.ttl)
      } catch (error) {
        process.stderr.write(`${(error as Error).message}\n`)
        process.exit(2)
      }
      if (ttl > settings.tokenMaxLifetimeSeconds) {
        process.stderr.write(
          `--ttl ${options.ttl} is longer than trips accepts (TRIPS_TOKEN_MAX_LIFETIME=${settings.tokenMaxLifetimeSeconds} s)\n`
        )
        process.exit(2)
      }
      const { loadDevSigningKey, signDevToken } = await import('./auth.js')
      process.stdout.write(`${await signDevToken(loadDevSigningKey(config.dataDir), options.email, ttl, settings.emailClaim)}\n`)
    })
}
