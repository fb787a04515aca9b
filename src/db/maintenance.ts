import type { Db, Queryable } from './db.ts';
import { firstRow } from './rows.ts';

/**
 * A table's own autovacuum setting, else the server's: the storage parameters a table may set
 * (`alter table ... set (autovacuum_analyze_threshold = ...)`) override the server's settings.
 */
const own = (name: string) => `(select option_value from pg_options_to_table(c.reloptions) where option_name = '${name}')`;
const setting = (name: string) => `coalesce(${own(name)}, current_setting('${name}'))::float8`;

/**
 * The tables autovacuum would analyze or vacuum now, by its own rules and settings (the table's,
 * else the server's): analyze past `autovacuum_analyze_threshold` + `autovacuum_analyze_scale_factor`
 * of the table in rows changed since the last ANALYZE; vacuum past the same pair for dead rows
 * (updates and deletes) and for rows inserted since the last VACUUM (so index-only scans keep their
 * visibility map). Only the tables nobody else maintains: every table when `$1` (PGlite, which has no
 * autovacuum, or a server with `autovacuum = off`), else those whose own `autovacuum_enabled` is off.
 * `$2`: one table's oid, or null for every table.
 */
const DUE_TABLES = `
  select c.oid::int8 as oid, format('%I', c.relname) as name,
         s.n_dead_tup > ${setting('autovacuum_vacuum_threshold')} + ${setting('autovacuum_vacuum_scale_factor')} * greatest(c.reltuples, 0)
      or s.n_ins_since_vacuum > ${setting('autovacuum_vacuum_insert_threshold')}
           + ${setting('autovacuum_vacuum_insert_scale_factor')} * greatest(c.reltuples, 0) as vacuum,
         s.n_mod_since_analyze > ${setting('autovacuum_analyze_threshold')}
           + ${setting('autovacuum_analyze_scale_factor')} * greatest(c.reltuples, 0) as analyze
  from pg_stat_user_tables s
  join pg_class c on c.oid = s.relid
  where s.schemaname = current_schema()
    and ($1::boolean or ${own('autovacuum_enabled')}::boolean = false)
    and ($2::int8 is null or c.oid = $2::int8)
  order by c.relname`;

interface DueTable {
  oid: number;
  name: string;
  vacuum: boolean;
  analyze: boolean;
}

/** What keeps the planner's statistics fresh on this database: the service itself, or autovacuum. */
export interface MaintenanceSettings {
  /** The service maintains every table (PGlite, or a server with autovacuum or track_counts off). */
  allTables: boolean;
  /** The server settings that make it so, for the start-up warning; empty on PGlite (documented) and with autovacuum on. */
  offSettings: string[];
  /** Tables whose own `autovacuum_enabled` is off while the server's autovacuum runs: the service maintains these. */
  tablesWithoutAutovacuum: string[];
}

/** Reads `autovacuum`, `track_counts` and the tables' own `autovacuum_enabled`. */
export async function maintenanceSettings(db: Db): Promise<MaintenanceSettings> {
  if (db.engine === 'pglite') return { allTables: true, offSettings: [], tablesWithoutAutovacuum: [] };
  const { rows } = await db.query<{ autovacuum: boolean; track_counts: boolean; disabled: string[] }>(
    `select current_setting('autovacuum')::boolean as autovacuum, current_setting('track_counts')::boolean as track_counts,
            array(select c.relname::text from pg_class c join pg_namespace n on n.oid = c.relnamespace
                  where n.nspname = current_schema() and c.relkind = 'r'
                    and ${own('autovacuum_enabled')}::boolean = false order by c.relname) as disabled`,
  );
  const settings = firstRow(rows);
  const offSettings = [settings.autovacuum ? [] : ['autovacuum'], settings.track_counts ? [] : ['track_counts']].flat();
  return {
    allTables: offSettings.length > 0,
    offSettings,
    tablesWithoutAutovacuum: offSettings.length > 0 ? [] : settings.disabled,
  };
}

/**
 * What autovacuum does, for the tables nobody else maintains (`MaintenanceSettings`): PGlite has
 * no background workers, and a PostgreSQL server may run with `autovacuum = off`. Without it the
 * planner keeps the statistics of a table's first minutes: statistics queries misjudged by orders
 * of magnitude (75 s instead of 1.4 s after demo data), and plans that connections cache (foreign-key
 * checks included) made while the table was empty, which a connection replans only after an ANALYZE:
 * a key lookup on `conversations` that went through `(account_id, created_at)`, reading every
 * conversation of the account, made creates three times slower within a minute.
 *
 * Several instances on one database do not do the work twice: a table is analyzed in a transaction
 * that first takes the lock ANALYZE takes, without waiting (another instance at work on it: skipped),
 * then checks again that it is due (another instance's ANALYZE resets its counters at once). VACUUM
 * cannot run in a transaction: it is checked again just before, and `SKIP_LOCKED` passes over a
 * table another instance is maintaining. Runs in the heavy lane without its timeout (a first VACUUM
 * of a large table may take minutes, and must finish). Returns the number of tables maintained.
 */
export async function maintainTables(db: Db, settings: MaintenanceSettings): Promise<number> {
  if (!settings.allTables && settings.tablesWithoutAutovacuum.length === 0) return 0;
  const due = async (q: Queryable, oid: number | null) => (await q.query<DueTable>(DUE_TABLES, [settings.allTables, oid])).rows;
  let maintained = 0;
  for (const candidate of await due(db.maintenance, null)) {
    let worked = false;
    if (candidate.vacuum) {
      const [table] = await due(db.maintenance, candidate.oid);
      if (table?.vacuum) {
        await db.maintenance.query(`vacuum (skip_locked) ${table.name}`);
        worked = true;
      }
    }
    if (candidate.analyze) {
      const analyzed = await db.maintenance
        .transaction(async (tx) => {
          await tx.query(`lock table ${candidate.name} in share update exclusive mode nowait`);
          const [table] = await due(tx, candidate.oid);
          if (table?.analyze) await tx.query(`analyze ${table.name}`);
          return table?.analyze === true;
        })
        .catch((error) => {
          if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) return false;
          throw error;
        });
      worked ||= analyzed;
    }
    if (worked) maintained++;
  }
  return maintained;
}

/** SQLSTATE of a NOWAIT lock another session holds. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Fresh planner statistics after a bulk load (migrations, demo data), for the tables holding rows.
 * An empty table is left as it is: analyzed empty, the planner would believe it stays tiny and
 * plan sequential scans that connections then keep while it grows; never analyzed, it is planned
 * as at least 10 pages until the maintenance pass analyzes it with rows in it. Maintenance work, bound
 * by no timeout: HEAVY_QUERY_TIMEOUT_MS and DB_STATEMENT_TIMEOUT_MS bound requests, and on a large
 * database the first failed the start that applied a migration (no request is served yet at that point).
 */
export async function analyzeTablesWithRows(db: Db): Promise<void> {
  const { rows } = await db.maintenance.query<{ name: string }>(
    `select format('%I', c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = current_schema()
       and (c.relkind = 'r' and not c.relispartition and pg_relation_size(c.oid) > 0
         -- A month-partitioned table (src/db/partitions.ts) holds its rows in its partitions: analyzing it
         -- analyzes them too and gives the parent its own estimates, which analyzing them alone never does.
         or c.relkind = 'p' and exists (select 1 from pg_inherits i where i.inhparent = c.oid and pg_relation_size(i.inhrelid) > 0))
     order by c.relname`,
  );
  if (rows.length > 0) await db.maintenance.query(`analyze ${rows.map((row) => row.name).join(', ')}`);
}

/**
 * The start-up warning when the service maintains tables a PostgreSQL server would (one line,
 * naming the setting), or null. PGlite has no autovacuum at all: documented, not warned about.
 */
export function maintenanceWarning(settings: MaintenanceSettings): string | null {
  const what = 'the service analyzes and vacuums its tables itself every 10 seconds (docs/operations.md#table-maintenance)';
  if (settings.offSettings.length > 0)
    return `PostgreSQL runs with ${settings.offSettings.map((name) => `${name} = off`).join(' and ')}: ${what}`;
  if (settings.tablesWithoutAutovacuum.length > 0) {
    return `Tables with autovacuum_enabled = false (${settings.tablesWithoutAutovacuum.join(', ')}): ${what.replace('its tables', 'them')}`;
  }
  return null;
}
