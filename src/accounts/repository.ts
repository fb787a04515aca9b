import type { Queryable } from '../db/db.ts';
import type { Row } from '../db/rows.ts';

const ACCOUNT_COLUMNS = `account_id, name, timezone, widget_key, widget_origins, widget_identity_required,
  widget_identity_secret is not null as widget_identity_secret_set, created_at, updated_at`;
/** The account's row, with whether it has an identity secret in place of the secret itself. */
export type AccountRow = Pick<
  Row<'accounts'>,
  'account_id' | 'name' | 'timezone' | 'widget_key' | 'widget_origins' | 'widget_identity_required' | 'created_at' | 'updated_at'
> & { widget_identity_secret_set: boolean };

/** What a visitor session needs of the account its widget key names. */
export type WidgetAccount = Pick<Row<'accounts'>, 'account_id' | 'widget_origins' | 'widget_identity_secret' | 'widget_identity_required'>;

/** The account of a widget key, or null. */
export async function accountByWidgetKey(db: Queryable, widgetKey: string): Promise<WidgetAccount | null> {
  const { rows } = await db.query<WidgetAccount>(
    'select account_id, widget_origins, widget_identity_secret, widget_identity_required from accounts where widget_key = $1',
    [widgetKey],
  );
  return rows[0] ?? null;
}

/** Whether some account allows `origin` for its widget (a CORS preflight names no account). */
export async function anyAccountAllowsOrigin(db: Queryable, origin: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from accounts where widget_origins @> array[$1::text] limit 1', [origin]);
  return rows.length > 0;
}

/** Replaces the account's widget key; false when the account does not exist. */
export async function setWidgetKey(db: Queryable, accountId: string, widgetKey: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query('update accounts set widget_key = $2, updated_at = $3 where account_id = $1', [
    accountId,
    widgetKey,
    at,
  ]);
  return (rowCount ?? 0) > 0;
}

/** Replaces the account's identity secret; false when the account does not exist. */
export async function setIdentitySecret(db: Queryable, accountId: string, secret: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query('update accounts set widget_identity_secret = $2, updated_at = $3 where account_id = $1', [
    accountId,
    secret,
    at,
  ]);
  return (rowCount ?? 0) > 0;
}

export async function insertAccount(
  db: Queryable,
  account: { accountId: string; name: string; timezone: string; apiKeyHash: string; widgetKey: string; at: Date },
): Promise<void> {
  await db.query(
    `insert into accounts (account_id, name, timezone, api_key_hash, widget_key, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $6)`,
    [account.accountId, account.name, account.timezone, account.apiKeyHash, account.widgetKey, account.at],
  );
}

export async function anyAccountExists(db: Queryable): Promise<boolean> {
  const { rows } = await db.query('select 1 from accounts limit 1');
  return rows.length > 0;
}

export async function accountExists(db: Queryable, accountId: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from accounts where account_id = $1', [accountId]);
  return rows.length > 0;
}

export async function accountByApiKeyHash(db: Queryable, apiKeyHash: string): Promise<{ account_id: string; timezone: string } | null> {
  const { rows } = await db.query<{ account_id: string; timezone: string }>(
    'select account_id, timezone from accounts where api_key_hash = $1',
    [apiKeyHash],
  );
  return rows[0] ?? null;
}

export async function findAccount(db: Queryable, accountId: string): Promise<AccountRow | null> {
  const { rows } = await db.query<AccountRow>(`select ${ACCOUNT_COLUMNS} from accounts where account_id = $1`, [accountId]);
  return rows[0] ?? null;
}

/** Sets the given fields (null keeps one); null when the account does not exist. */
export async function updateAccount(
  db: Queryable,
  accountId: string,
  change: {
    name: string | null;
    timezone: string | null;
    widgetOrigins: string[] | null;
    widgetIdentityRequired: boolean | null;
    at: Date;
  },
): Promise<AccountRow | null> {
  const { rows } = await db.query<AccountRow>(
    `update accounts set name = coalesce($2, name), timezone = coalesce($3, timezone),
       widget_origins = coalesce($4, widget_origins), widget_identity_required = coalesce($5, widget_identity_required),
       updated_at = $6
     where account_id = $1
     returning ${ACCOUNT_COLUMNS}`,
    [accountId, change.name, change.timezone, change.widgetOrigins, change.widgetIdentityRequired, change.at],
  );
  return rows[0] ?? null;
}

/** Replaces the account's apiKey hash; false when the account does not exist. */
export async function setApiKeyHash(db: Queryable, accountId: string, apiKeyHash: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query('update accounts set api_key_hash = $2, updated_at = $3 where account_id = $1', [
    accountId,
    apiKeyHash,
    at,
  ]);
  return (rowCount ?? 0) > 0;
}

/** The account's time zone; null when there is no such account. */
export async function accountTimezone(db: Queryable, accountId: string): Promise<string | null> {
  const { rows } = await db.query<{ timezone: string }>('select timezone from accounts where account_id = $1', [accountId]);
  return rows[0]?.timezone ?? null;
}
