import type { Command } from 'commander';
import { ConfigError, type Config } from '../config.ts';

/** `chat-service migrate`, `backup` and `restore`. */
export function registerDatabaseCommands(program: Command, config: () => Config): void {
  program
    .command('migrate')
    .description('apply pending database migrations')
    .option('--status', 'list the migrations, applied (with the time) or pending, and apply nothing')
    .action(async (options: { status?: boolean }) => {
      const [{ openDb, dbOptionsOf }, { migrateDirect, migrationStatus }] = await Promise.all([import('./db.ts'), import('./migrate.ts')]);
      const dbOptions = dbOptionsOf(config(), false);
      const db = await openDb(dbOptions);
      try {
        if (options.status) {
          const migrations = await migrationStatus(db);
          for (const { version, appliedAt } of migrations)
            console.log(`${appliedAt ? 'applied' : 'pending'}  ${version}${appliedAt ? `  ${appliedAt.toISOString()}` : ''}`);
          const pending = migrations.filter((migration) => !migration.appliedAt).length;
          console.log(
            pending ? `${pending} pending: run \`chat-service migrate\` (the server applies them on start)` : 'Schema is up to date',
          );
          return;
        }
        const applied = await migrateDirect(db, dbOptions);
        console.log(applied.length ? `Applied ${applied.join(', ')}` : 'Schema is up to date');
      } finally {
        await db.close();
      }
    });

  // PGlite only: with PostgreSQL the database is backed up by PostgreSQL's own tools.
  const pgliteDirectory = (command: string): string => {
    const { databaseUrl, dataDir } = config();
    if (databaseUrl)
      throw new ConfigError(`${command} copies PGlite's DATA_DIR; with DATABASE_URL use pg_dump and pg_restore (docs/operations.md)`);
    if (dataDir === 'memory') throw new ConfigError(`${command} needs a DATA_DIR on disk, not "memory"`);
    return dataDir;
  };

  program
    .command('backup')
    .description("write PGlite's data directory (DATA_DIR) to a file; stop the server first")
    .requiredOption('--out <file>', 'backup file to write (a gzipped tarball)')
    .action(async (options: { out: string }) => {
      const { backupPglite } = await import('./backup.ts');
      const dataDir = pgliteDirectory('backup');
      const bytes = await backupPglite(dataDir, options.out);
      console.log(`Backed up ${dataDir} to ${options.out} (${bytes} bytes)`);
    });

  program
    .command('restore')
    .description('unpack a backup into an empty or new DATA_DIR (PGlite); the server applies newer migrations on start')
    .requiredOption('--from <file>', 'backup file written by `chat-service backup`')
    .action(async (options: { from: string }) => {
      const { restorePglite } = await import('./backup.ts');
      const dataDir = pgliteDirectory('restore');
      await restorePglite(dataDir, options.from);
      console.log(`Restored ${options.from} into ${dataDir}`);
    });
}
