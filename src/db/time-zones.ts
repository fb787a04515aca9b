import type { Db } from './db.ts';

// pg_timezone_names reads the whole zone database (tens of milliseconds), so each
// database's list is read once, by whichever asks first (statistics or account settings),
// in the caller's lane: account settings must not wait behind statistics, nor time out with them.
// Keyed by `db.heavy`, the one object both views of a database share.
const zoneNames = new WeakMap<Db, Promise<Set<string>>>();

/** The IANA zone names this database knows (so SQL `at time zone` accepts them). */
export function timeZoneNames(db: Db): Promise<Set<string>> {
  const key = db.heavy;
  let names = zoneNames.get(key);
  if (!names) {
    names = db.query<{ name: string }>('select name from pg_timezone_names').then(({ rows }) => new Set(rows.map((row) => row.name)));
    names.catch(() => zoneNames.delete(key));
    zoneNames.set(key, names);
  }
  return names;
}

export async function isKnownTimeZone(db: Db, name: string): Promise<boolean> {
  return (await timeZoneNames(db)).has(name);
}
