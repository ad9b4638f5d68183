import type { Command } from 'commander'
import type { Database } from '../../core/db/database.js'
import type { CliRuntime } from '../../core/service.js'
import { createApiKey, KeyInputError, listApiKeys, revokeApiKey } from './modules/keys/keys.service.js'

interface DataDirOption {
  dataDir?: string
}

async function withDatabase<T>(runtime: CliRuntime, options: DataDirOption, work: (database: Database) => Promise<T>): Promise<T> {
  // Keys need only the base settings: no other service's production rules apply here.
  const config = runtime.loadConfig({ QUARTET_DATA_DIR: options.dataDir }, [])
  const database = await runtime.openDatabase(config)
  try {
    return await work(database)
  } catch (error) {
    if (error instanceof KeyInputError) {
      process.stderr.write(`${error.message}\n`)
      await database.close()
      process.exit(2)
    }
    throw error
  } finally {
    await database.close()
  }
}

/** `quartet marketplace keys create|list|revoke`: the marketplace's API keys (printed once, stored hashed). */
export function marketplaceCommands(program: Command, runtime: CliRuntime): void {
  const marketplace = program.command('marketplace').description('marketplace tools')
  const keys = marketplace.command('keys').description('manage marketplace API keys (merchant and channel keys per customer)')

  keys
    .command('create')
    .description('create an API key; it is printed once and stored only as a hash')
    .requiredOption('--customer <name>', 'customer (tenant) the key belongs to; created on first use')
    .requiredOption('--role <role>', 'merchant | channel')
    .option('--channel <name>', 'channel name (required for --role channel; created on first use)')
    .option('--data-dir <dir>', 'data directory (QUARTET_DATA_DIR)')
    .action(async (options: DataDirOption & { customer: string; role: string; channel?: string }) => {
      await withDatabase(runtime, options, async (database) => {
        const created = await createApiKey(database, { customer: options.customer, role: options.role, channel: options.channel })
        process.stdout.write(`${created.key}\n`)
        process.stderr.write(
          `Created ${created.role} key ${created.id} (prefix ${created.prefix}) for customer ${created.customer}` +
            `${created.channel ? `, channel ${created.channel}` : ''}.\n` +
            'Store it now: it cannot be shown again (only its hash is kept). Use it as ?apikey=KEY or the X-CE-KEY header.\n'
        )
      })
    })

  keys
    .command('list')
    .description('list API keys (prefix, role, channel, created, revoked; never the key)')
    .option('--customer <name>', 'only this customer')
    .option('--data-dir <dir>', 'data directory (QUARTET_DATA_DIR)')
    .action(async (options: DataDirOption & { customer?: string }) => {
      await withDatabase(runtime, options, async (database) => {
        const rows = await listApiKeys(database, options.customer)
        if (rows.length === 0) {
          process.stdout.write('No API keys. Create one: quartet keys create --customer ACME --role merchant\n')
          return
        }
        const table = [
          ['ID', 'PREFIX', 'CUSTOMER', 'ROLE', 'CHANNEL', 'CREATED', 'REVOKED'],
          ...rows.map((r) => [String(r.id), `${r.prefix}…`, r.customer, r.role, r.channel ?? '-', r.createdAt, r.revokedAt ?? '-'])
        ]
        const widths = table[0]?.map((_, i) => Math.max(...table.map((row) => (row[i] ?? '').length))) ?? []
        for (const row of table)
          process.stdout.write(
            `${row
              .map((cell, i) => cell.padEnd(widths[i] ?? 0))
              .join('  ')
              .trimEnd()}\n`
          )
      })
    })

  keys
    .command('revoke')
    .description('revoke an API key by its id or prefix (requests with it then get 401)')
    .argument('<id-or-prefix>', 'key id or prefix as shown by quartet keys list')
    .option('--data-dir <dir>', 'data directory (QUARTET_DATA_DIR)')
    .action(async (idOrPrefix: string, options: DataDirOption) => {
      await withDatabase(runtime, options, async (database) => {
        const revoked = await revokeApiKey(database, idOrPrefix.replace(/…$/, ''))
        process.stdout.write(
          revoked.alreadyRevoked
            ? `Key ${revoked.id} (${revoked.prefix}…) was already revoked.\n`
            : `Revoked key ${revoked.id} (${revoked.prefix}…).\n`
        )
      })
    })
}
