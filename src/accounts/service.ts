import type { Db, Queryable } from '../db/db.ts';
import type { Deps } from '../deps.ts';
import { newId, randomString, sha256 } from '../ids.ts';
import { generateApiKey } from '../auth/tokens.ts';
import { SCOPES } from '../auth/scopes.ts';
import { createToken } from '../tokens/service.ts';
import { lockSchema } from '../db/migrate.ts';
import { isKnownTimeZone } from '../db/time-zones.ts';
import { invalidArgument, notFound } from '../http/errors.ts';
import * as repo from './repository.ts';
import { toAccount } from './presenter.ts';
import { deleteAccountSessions } from '../visitors/repository.ts';
import type { Account, RotatedApiKey, RotatedIdentitySecret, RotatedWidgetKey, UpdateAccountBody } from './schema.ts';

export interface NewAccount {
  account_id: string;
  token: string;
  api_key: string;
}

type AccountDeps = Pick<Deps, 'db' | 'now'>;

/** A new tenant with an owner token holding every scope and a legacy apiKey. */
export async function createAccount(deps: AccountDeps, input: { name?: string; timezone?: string } = {}): Promise<NewAccount> {
  return deps.db.transaction((tx) => insertAccount({ db: tx, now: deps.now }, input));
}

async function insertAccount(deps: { db: Queryable; now: () => Date }, input: { name?: string; timezone?: string }): Promise<NewAccount> {
  const accountId = newId('ac');
  const apiKey = generateApiKey();
  await repo.insertAccount(deps.db, {
    accountId,
    name: input.name ?? 'My account',
    timezone: input.timezone ?? 'UTC',
    apiKeyHash: sha256(apiKey),
    widgetKey: generateWidgetKey(),
    at: deps.now(),
  });
  const owner = await createToken(deps, accountId, { name: 'owner', scopes: SCOPES });
  return { account_id: accountId, token: owner.token, api_key: apiKey };
}

/**
 * The first account of an empty database, or null when it has one. The check and the insert
 * run under the schema's advisory lock, so instances starting at once on one empty
 * PostgreSQL database create one account, not one each.
 */
export async function createFirstAccount(deps: AccountDeps): Promise<NewAccount | null> {
  return deps.db.transaction(async (tx) => {
    await lockSchema(tx);
    if (await repo.anyAccountExists(tx)) return null;
    return insertAccount({ db: tx, now: deps.now }, { name: 'Default account' });
  });
}

export async function requireAccount(db: Queryable, accountId: string): Promise<void> {
  if (!(await repo.accountExists(db, accountId))) throw notFound(`Account ${accountId}`);
}

/** The account of a widget key, with its widget settings, or null. */
export function widgetAccountByKey(db: Queryable, widgetKey: string): Promise<repo.WidgetAccount | null> {
  return repo.accountByWidgetKey(db, widgetKey);
}

/** Whether some account allows `origin` for its widget (the CORS preflight, which names no account). */
export function originAllowedAnywhere(db: Queryable, origin: string): Promise<boolean> {
  return repo.anyAccountAllowsOrigin(db, origin);
}

/** The account a legacy apiKey belongs to, or null. */
export function accountByApiKey(db: Queryable, apiKey: string): Promise<{ account_id: string; timezone: string } | null> {
  return repo.accountByApiKeyHash(db, sha256(apiKey));
}

export async function getAccount(db: Queryable, accountId: string): Promise<Account> {
  const row = await repo.findAccount(db, accountId);
  if (!row) throw notFound('Account');
  return toAccount(row);
}

/** The public key of an account's widget: it sits in the host page, so it only needs to be unguessable enough not to collide. */
const generateWidgetKey = () => `wk_${randomString(24)}`;

/**
 * An allowed origin as browsers send it in `Origin` (scheme, lower-case host, port unless the default), or null
 * when `value` is not an http(s) origin: a path, a query, credentials or a wildcard make it none.
 */
export function normalizeOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/' || value.includes('*')) return null;
  if (!/^[a-z]+:\/\/[^/]+\/?$/i.test(value)) return null;
  return url.origin;
}

function widgetOrigins(origins: string[] | undefined): string[] | null {
  if (origins === undefined) return null;
  const normalized = origins.map((origin, i) => {
    const found = normalizeOrigin(origin);
    if (found === null) throw invalidArgument(`widget_origins[${i}]`, 'format', 'must be an origin such as https://shop.example.com');
    return found;
  });
  return [...new Set(normalized)];
}

export async function updateAccount(deps: { db: Db; now: () => Date }, accountId: string, input: UpdateAccountBody): Promise<Account> {
  if (Object.values(input).every((value) => value === undefined)) return getAccount(deps.db, accountId);
  const origins = widgetOrigins(input.widget_origins);
  if (input.widget_identity_required === true && !(await getAccount(deps.db, accountId)).widget_identity_secret_set) {
    throw invalidArgument(
      'widget_identity_required',
      'required',
      'needs an identity secret first: POST /v2/account/widget-identity-secret/rotate',
    );
  }
  // Only a zone the database knows, so SQL `at time zone` accepts every stored one.
  if (input.timezone !== undefined && !(await isKnownTimeZone(deps.db, input.timezone))) {
    throw invalidArgument('timezone', 'format', 'must be an IANA time zone name such as Europe/Paris');
  }
  const row = await repo.updateAccount(deps.db, accountId, {
    name: input.name ?? null,
    timezone: input.timezone ?? null,
    widgetOrigins: origins,
    widgetIdentityRequired: input.widget_identity_required ?? null,
    at: deps.now(),
  });
  if (!row) throw notFound('Account');
  return toAccount(row);
}

/**
 * A new legacy apiKey for the account (docs/behaviour.md §11): shown once, stored as its hash; the old key is
 * refused from the next request on, on every instance (apiKey lookups are not cached).
 */
export async function rotateApiKey(deps: AccountDeps, accountId: string): Promise<RotatedApiKey> {
  const apiKey = generateApiKey();
  if (!(await repo.setApiKeyHash(deps.db, accountId, sha256(apiKey), deps.now()))) throw notFound(`Account ${accountId}`);
  return { api_key: apiKey };
}

/**
 * A new widget key (docs/widget.md): the old one starts no session from now on, and every visitor token of the
 * account is revoked with it, in one transaction.
 */
export async function rotateWidgetKey(deps: AccountDeps, accountId: string): Promise<RotatedWidgetKey> {
  const widgetKey = generateWidgetKey();
  return deps.db.transaction(async (tx) => {
    if (!(await repo.setWidgetKey(tx, accountId, widgetKey, deps.now()))) throw notFound(`Account ${accountId}`);
    await deleteAccountSessions(tx, accountId);
    return { widget_key: widgetKey };
  });
}

/** A new secret for signed visitor identities (docs/widget.md "Identity verification"), shown in this answer only. */
export async function rotateIdentitySecret(deps: AccountDeps, accountId: string): Promise<RotatedIdentitySecret> {
  const secret = `wis_${randomString(40)}`;
  if (!(await repo.setIdentitySecret(deps.db, accountId, secret, deps.now()))) throw notFound(`Account ${accountId}`);
  return { widget_identity_secret: secret };
}
