import type { Queryable } from '../db/db.ts';
import { GROUPS } from '../named-resources/schema.ts';
import { missingNamedIds } from '../named-resources/repository.ts';

/** The ids among `ids` that are not groups of the account (groups are named resources: src/named-resources). */
export function missingGroupIds(db: Queryable, accountId: string, ids: string[]): Promise<string[]> {
  return missingNamedIds(db, GROUPS, accountId, ids);
}
