import type { NamedRow } from './repository.ts';
import type { NamedResource } from './schema.ts';

export function toNamedResource(row: NamedRow): NamedResource {
  return { id: row.id, name: row.name, created_at: row.created_at.toISOString() };
}
