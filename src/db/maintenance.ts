import type { Db } from './db.ts';

/**
 * What autovacuum does on PostgreSQL, for PGlite, which has no background workers: the
 * tables changed enough since their last ANALYZE (or VACUUM) by autovacuum's default
 * rules (50 rows plus 10% of the table for ANALYZE, 50 plus 20% of dead rows for VACUUM)
 * are analyzed (vacuumed). Without fresh statistics the planner misjudges the statistics
 * queries by orders of magnitude (75 s instead of 1.4 s after demo data). Runs in the heavy
 * lane so small requests go first. Returns the number of tables maintained; PostgreSQL is
 * left to its own autovacuum.
 */
export async function maintainTables(db: Db): Promise<number> {
  if (db.engine !== 'pglite') return 0;
  const { rows } = await db.heavy.query<{ name: string; vacuum: boolean }>(
    `select format('%I', s.relname) as name,
            s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) as vacuum
     from pg_stat_user_tables s join pg_class c on c.oid = s.relid
     where s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
        or s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
     order by s.relname`,
  );
  for (const table of rows) await db.heavy.query(`${table.vacuum ? 'vacuum (analyze)' : 'analyze'} ${table.name}`);
  return rows.length;
}

/**
 * Fresh planner statistics for every table, after a bulk load (migrations, demo data). Not in the
 * heavy lane: its HEAVY_QUERY_TIMEOUT_MS bounds requests, and on a large database it failed the
 * start that applied a migration (no request is served yet at that point).
 */
export async function analyzeAll(db: Db): Promise<void> {
  await db.query('analyze');
}
