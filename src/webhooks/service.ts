import type { Deps } from '../deps.ts';
import { invalidArgument, notFound } from '../http/errors.ts';
import { newId } from '../ids.ts';
import { newSecret } from './signature.ts';
import { blockedRange, hostOf, REFUSED_ADDRESS_MESSAGE, resolveHost } from './address.ts';
import type {
  CreateWebhookBody,
  CreatedWebhook,
  DeliveryAttempt,
  RotateWebhookSecretBody,
  RotatedWebhookSecret,
  Webhook,
} from './schema.ts';
import * as repo from './repository.ts';
import { toDeliveryAttempt, toWebhook } from './presenter.ts';
import { settledEventId } from '../events/horizon.ts';

type WebhookDeps = Pick<Deps, 'db' | 'config' | 'now'>;
type RotationDeps = Pick<Deps, 'db' | 'now'>;

const RECENT_ATTEMPTS = 100;

export async function createWebhook(deps: WebhookDeps, accountId: string, input: CreateWebhookBody): Promise<CreatedWebhook> {
  await checkUrl(deps.config, input.url);
  const secret = input.secret ?? newSecret();
  const row = await repo.insertWebhook(deps.db, accountId, {
    id: newId('wh'),
    url: input.url,
    eventTypes: input.events ?? null,
    secret,
    // Every event committed before the creation is at or below the settled horizon.
    queuedThroughEventId: await settledEventId(deps.db),
    createdAt: deps.now(),
  });
  return { ...toWebhook(row), secret };
}

/** http(s) only; with WEBHOOK_BLOCK_PRIVATE (the default), the host must resolve to global unicast addresses only (docs/behaviour.md §11). */
async function checkUrl(config: WebhookDeps['config'], raw: string): Promise<void> {
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw invalidArgument('url', 'format', 'must be an http:// or https:// URL');
  }
  if (!config.webhookBlockPrivate) return;
  const host = hostOf(url);
  // One answer for every refusal, unresolvable host included: which one it was is the tenant's DNS oracle (issue 18.9).
  const addresses = await resolveHost(host).catch(() => []);
  if (addresses.length === 0 || addresses.some((address) => blockedRange(address) !== null)) {
    throw invalidArgument('url', 'public_address', REFUSED_ADDRESS_MESSAGE);
  }
}

export async function listWebhooks(deps: WebhookDeps, accountId: string): Promise<Webhook[]> {
  return (await repo.listWebhooks(deps.db, accountId)).map(toWebhook);
}

/** Pending deliveries go with it; an attempt in flight finishes but is not recorded. */
export async function deleteWebhook(deps: WebhookDeps, accountId: string, id: string): Promise<void> {
  if (!(await repo.deleteWebhook(deps.db, accountId, id))) throw notFound(`Webhook ${id}`);
}

export async function listDeliveryAttempts(deps: WebhookDeps, accountId: string, id: string): Promise<DeliveryAttempt[]> {
  if (!(await repo.webhookExists(deps.db, accountId, id))) throw notFound(`Webhook ${id}`);
  return (await repo.recentAttempts(deps.db, accountId, id, RECENT_ATTEMPTS)).map(toDeliveryAttempt);
}

/**
 * A new signing secret (given, or generated); the replaced one keeps signing beside it for
 * `overlap_seconds`, so receivers can move to the new one without refusing a delivery.
 */
export async function rotateSecret(
  deps: RotationDeps,
  accountId: string,
  id: string,
  input: RotateWebhookSecretBody,
): Promise<RotatedWebhookSecret> {
  const secret = input.secret ?? newSecret();
  const previousUntil = input.overlap_seconds > 0 ? new Date(deps.now().getTime() + input.overlap_seconds * 1000) : null;
  const row = await repo.rotateSecret(deps.db, accountId, id, secret, previousUntil);
  if (!row) throw notFound(`Webhook ${id}`);
  return { ...toWebhook(row), secret, previous_secret_expires_at: previousUntil?.toISOString() ?? null };
}
