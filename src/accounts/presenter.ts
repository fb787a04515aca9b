import type { AccountRow } from './repository.ts';
import type { Account } from './schema.ts';

export function toAccount(row: AccountRow): Account {
  return {
    id: row.account_id,
    name: row.name,
    timezone: row.timezone,
    widget_key: row.widget_key,
    widget_origins: row.widget_origins,
    widget_identity_required: row.widget_identity_required,
    widget_identity_secret_set: row.widget_identity_secret_set,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
