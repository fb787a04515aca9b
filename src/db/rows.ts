// Every table's row, declared once: the column names, their PostgreSQL types and whether they may be null.
// Repositories type what they read with `Row<'table'>` (or a `Pick` of it) rather than declaring their own shapes,
// and src/db/rows.test.ts compares these declarations with the live catalog after the migrations, so a migration
// that drifts from them (a renamed column, a changed type, a dropped `not null`, another set of checked values)
// fails the suite.
// A type ending in `?` is nullable. Values arrive as node-postgres gives them on both engines (src/db/db.ts):
// int8 and numeric as numbers, timestamptz as Date, jsonb parsed, bytea as Buffer, arrays as arrays.

/** The PostgreSQL types the schema uses (`udt_name` in information_schema), and what node-postgres returns for each. */
interface ColumnValues {
  text: string;
  int4: number;
  int8: number;
  float8: number;
  bool: boolean;
  timestamptz: Date;
  jsonb: unknown;
  bytea: Buffer;
  _text: string[];
  /** Only ever read by the database's own text search (generated columns); never selected. */
  tsvector: string;
}
type ColumnType = keyof ColumnValues | `${keyof ColumnValues}?`;

export const TABLES = {
  accounts: {
    account_id: 'text',
    name: 'text',
    timezone: 'text',
    api_key_hash: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
    widget_key: 'text',
    widget_origins: '_text',
    widget_identity_secret: 'text?',
    widget_identity_required: 'bool',
  },
  api_tokens: {
    account_id: 'text',
    id: 'text',
    name: 'text',
    scopes: '_text',
    token_hash: 'text',
    created_at: 'timestamptz',
    revoked_at: 'timestamptz?',
  },
  agents: {
    account_id: 'text',
    id: 'text',
    email: 'text',
    full_name: 'text?',
    nickname: 'text?',
    role: 'text',
    status: 'text',
    last_ping_at: 'timestamptz?',
    created_at: 'timestamptz',
    deleted_at: 'timestamptz?',
  },
  agent_groups: { account_id: 'text', agent_id: 'text', group_id: 'text' },
  agent_numbers: { account_id: 'text', last_number: 'int8' },
  groups: { account_id: 'text', id: 'text', name: 'text', created_at: 'timestamptz' },
  tags: { account_id: 'text', id: 'text', name: 'text', created_at: 'timestamptz' },
  bots: {
    account_id: 'text',
    id: 'text',
    name: 'text',
    trigger_active: 'bool',
    trigger_event: 'text',
    trigger_conditions: 'jsonb',
    trigger_text: 'text?',
    trigger_html: 'text?',
    trigger_updated_at: 'timestamptz',
    created_at: 'timestamptz',
  },
  contacts: {
    account_id: 'text',
    id: 'text',
    email: 'text?',
    identity_id: 'text?',
    name: 'text?',
    phone: 'text?',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
    text_search: 'tsvector?',
    name_key: 'text?',
    email_key: 'text?',
    erasing_at: 'timestamptz?',
  },
  conversations: {
    account_id: 'text',
    id: 'text',
    ext_id: 'text?',
    status: 'text',
    contact_id: 'text',
    group_id: 'text?',
    domain: 'text?',
    assigned_ids: '_text',
    agent_ids: '_text',
    tags: '_text',
    variables: 'jsonb',
    rating_value: 'int4?',
    rating_text: 'text?',
    rated_at: 'timestamptz?',
    is_offline: 'bool',
    is_served: 'bool',
    unread: 'int4',
    last_message_text: 'text?',
    last_message_at: 'timestamptz?',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
    finished_at: 'timestamptz?',
    close_type: 'text?',
    unanswered_since: 'timestamptz?',
    unanswered_offline: 'bool',
    has_reply: 'bool',
    has_contact_message: 'bool',
    latest_message_at: 'timestamptz?',
  },
  messages: {
    account_id: 'text',
    id: 'text',
    conversation_id: 'text',
    seq: 'int8',
    type: 'text',
    sub_type: 'text',
    agent_id: 'text?',
    trigger_id: 'text?',
    content: 'jsonb',
    text: 'text?',
    html: 'text?',
    attachments: 'jsonb',
    is_reply: 'bool',
    is_first_reply: 'bool',
    is_offline: 'bool',
    is_offline_reply: 'bool',
    response_time: 'float8?',
    group_id: 'text?',
    created_at: 'timestamptz',
    text_search: 'tsvector?',
  },
  paths: {
    account_id: 'text',
    conversation_id: 'text',
    seq: 'int8',
    url: 'text',
    title: 'text?',
    created_at: 'timestamptz',
  },
  uploads: {
    account_id: 'text',
    id: 'text',
    token_hash: 'text',
    file_name: 'text',
    file_type: 'text',
    size: 'int4',
    /** Files stored before migration 170; newer ones keep their bytes in upload_chunks. */
    data: 'bytea?',
    created_at: 'timestamptz',
    expires_at: 'timestamptz',
    attached: 'bool',
    complete: 'bool',
  },
  upload_chunks: {
    account_id: 'text',
    upload_id: 'text',
    seq: 'int4',
    data: 'bytea',
  },
  events: {
    account_id: 'text',
    id: 'int8',
    type: 'text',
    conversation_id: 'text?',
    data: 'jsonb',
    created_at: 'timestamptz',
  },
  webhooks: {
    account_id: 'text',
    id: 'text',
    url: 'text',
    event_types: '_text?',
    secret: 'text',
    queued_through_event_id: 'int8',
    created_at: 'timestamptz',
    previous_secret: 'text?',
    previous_secret_expires_at: 'timestamptz?',
  },
  webhook_deliveries: {
    account_id: 'text',
    webhook_id: 'text',
    event_id: 'int8',
    lane: 'text',
    next_attempt_at: 'timestamptz?',
    leased_until: 'timestamptz?',
    attempts: 'int4',
    queued_at: 'timestamptz',
  },
  webhook_attempts: {
    account_id: 'text',
    webhook_id: 'text',
    seq: 'int8',
    event_id: 'int8',
    event_type: 'text',
    attempt: 'int4',
    status_code: 'int4?',
    error: 'text?',
    duration_ms: 'int4',
    attempted_at: 'timestamptz',
    next_attempt_at: 'timestamptz?',
  },
  widget_sessions: {
    account_id: 'text',
    id: 'text',
    contact_id: 'text',
    token_hash: 'text',
    created_at: 'timestamptz',
    last_seen_at: 'timestamptz',
  },
  widget_writes: {
    account_id: 'text',
    contact_id: 'text',
    client_id: 'text',
    result_id: 'text?',
    created_at: 'timestamptz',
    scope: 'text',
  },
  idempotency_keys: {
    account_id: 'text',
    key: 'text',
    request_hash: 'text',
    lock_id: 'text?',
    locked_until: 'timestamptz?',
    status: 'int4?',
    content_type: 'text?',
    response_body: 'text?',
    created_at: 'timestamptz',
  },
  /** The migration runner's own table (src/db/migrate.ts). */
  schema_migrations: { version: 'text', applied_at: 'timestamptz' },
} as const satisfies Record<string, Record<string, ColumnType>>;

/** The values a check constraint allows in a text column (`column in (...)`): `Row` narrows the column to them. */
export const CHECKED_VALUES = {
  agents: { role: ['agent', 'admin', 'owner'], status: ['online', 'offline'] },
  bots: { trigger_event: ['conversation_opened', 'page_visit', 'idle'] },
  conversations: { status: ['pending', 'open', 'served', 'closed'], close_type: ['agent', 'contact', 'inactivity'] },
  messages: { type: ['message', 'note', 'event'], sub_type: ['contact', 'agent', 'bot', 'trigger', 'system'] },
} as const satisfies { [T in keyof typeof TABLES]?: { [C in keyof (typeof TABLES)[T]]?: readonly string[] } };

export type TableName = keyof typeof TABLES;

type ValueOf<T extends ColumnType> = T extends `${infer Base extends keyof ColumnValues}?`
  ? ColumnValues[Base] | null
  : T extends keyof ColumnValues
    ? ColumnValues[T]
    : never;

/** The checked values of column `C` of table `T`, or `Value` (the column's type) when no check narrows it. */
type Checked<T extends TableName, C, Value> = T extends keyof typeof CHECKED_VALUES
  ? C extends keyof (typeof CHECKED_VALUES)[T]
    ? (typeof CHECKED_VALUES)[T][C] extends readonly (infer V)[]
      ? V | (null extends Value ? null : never)
      : Value
    : Value
  : Value;

/** A whole row of `table`, as node-postgres returns it. */
export type Row<T extends TableName> = {
  -readonly [C in keyof (typeof TABLES)[T]]: Checked<T, C, ValueOf<(typeof TABLES)[T][C] & ColumnType>>;
};

/**
 * The row of a query that always returns one (`insert ... returning`, an aggregate without `group by`). None is a
 * broken invariant, not a client's mistake: a plain Error, which the error handler answers as a bare 500.
 */
export function firstRow<R>(rows: readonly R[]): R {
  const [row] = rows;
  if (row === undefined) throw new Error('The query returned no row');
  return row;
}
