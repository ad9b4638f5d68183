/**
 * An orchestrator that can be "restarted": each start builds it anew (nothing kept in memory)
 * over the same database and project, with a clock the test moves.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after } from 'node:test'
import { allMigrationSets } from '../../../../src/cli/registry.js'
import { openDatabase, type Database } from '../../../../src/core/db/database.js'
import { migrateToLatest } from '../../../../src/core/db/migrations.js'
import { nodePlatform } from '../../../../src/core/platform.js'
import { createOrchestrator, type Orchestrator } from '../../../../src/services/orchestrator/compose.js'
import { isolatedDatabaseEnv } from '../../../helpers/cli.js'
import { createTempProject, type TempProject } from '../../../helpers/orchestrator.js'

export interface Restartable {
  project: TempProject
  database: Database
  clock: { now: Date; advance(ms: number): void; set(iso: string): void }
  /** A fresh orchestrator (a restart); the previous one is closed. */
  start(): Promise<Orchestrator>
}

export async function restartable(config: unknown, startAt: string): Promise<Restartable> {
  const project = createTempProject({ config, git: false })
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quartet-auto-data-'))
  const pg = await isolatedDatabaseEnv('auto')
  const database = await openDatabase({ url: pg.DATABASE_URL, sqlitePath: path.join(dataDir, 'quartet.db'), poolSize: 2 })
  await migrateToLatest(database.db, allMigrationSets())
  const clock = {
    now: new Date(startAt),
    advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms)
    },
    set(iso: string) {
      clock.now = new Date(iso)
    }
  }
  let current: Orchestrator | undefined
  after(async () => {
    current?.close()
    await database.close()
    await pg.cleanup()
    fs.rmSync(dataDir, { recursive: true, force: true })
  })
  return {
    project,
    database,
    clock,
    async start() {
      current?.close()
      current = await createOrchestrator({
        database,
        platform: nodePlatform({ clock: () => clock.now }),
        projectRoot: project.root,
        dataDir,
        databaseUrl: pg.DATABASE_URL,
        controlMutationsSwitch: false,
        logger: { warn: () => undefined }
      })
      return current
    }
  }
}
