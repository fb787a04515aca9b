import type { Queryable } from '../db/db.ts';
import { TAGS } from '../named-resources/schema.ts';
import { missingNamedIds } from '../named-resources/repository.ts';

/** The ids among `ids` that are not tags of the account (tags are named resources: src/named-resources). */
export function missingTagIds(db: Queryable, accountId: string, ids: string[]): Promise<string[]> {
  return missingNamedIds(db, TAGS, accountId, ids);
}
