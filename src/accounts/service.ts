import type { Db, Queryable } from '../db/db.ts';
import type { Deps } from '../deps.ts';
import { newId, sha256 } from '../ids.ts';
import { generateApiKey } from '../auth/tokens.ts';
import { SCOPES } from '../auth/scopes.ts';
import { createToken } from '../tokens/service.ts';
import { lockSchema } from '../db/migrate.ts';
import { isKnownTimeZone } from '../db/time-zones.ts';
import { invalidArgument, notFound } from '../http/errors.ts';
import * as repo from './repository.ts';
import type { Account, RotatedApiKey, UpdateAccountBody } from './schema.ts';

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

/** The account a legacy apiKey belongs to, or null. */
export function accountByApiKey(db: Queryable, apiKey: string): Promise<{ account_id: string; timezone: string } | null> {
  return repo.accountByApiKeyHash(db, sha256(apiKey));
}

export async function getAccount(db: Queryable, accountId: string): Promise<Account> {
  const account = await repo.findAccount(db, accountId);
  if (!account) throw notFound('Account');
  return account;
}

export async function updateAccount(deps: { db: Db; now: () => Date }, accountId: string, input: UpdateAccountBody): Promise<Account> {
  if (input.name === undefined && input.timezone === undefined) return getAccount(deps.db, accountId);
  // Only a zone the database knows, so SQL `at time zone` accepts every stored one.
  if (input.timezone !== undefined && !(await isKnownTimeZone(deps.db, input.timezone))) {
    throw invalidArgument('timezone', 'format', 'must be an IANA time zone name such as Europe/Paris');
  }
  const account = await repo.updateAccount(deps.db, accountId, {
    name: input.name ?? null,
    timezone: input.timezone ?? null,
    at: deps.now(),
  });
  if (!account) throw notFound('Account');
  return account;
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
