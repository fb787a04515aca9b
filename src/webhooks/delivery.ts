/**
 * Webhook delivery (docs/behaviour.md §8). Every state lives in the database, so
 * deliveries survive restarts and several instances share the work:
 *
 * 1. New outbox events are queued per webhook (webhook_deliveries), in lanes:
 *    one per conversation, plus one for account-level events.
 * 2. Due deliveries are claimed with a lease (FOR UPDATE SKIP LOCKED), at most
 *    one per lane, so events of a conversation arrive in order and a failing
 *    conversation holds up only its own later events. The worker claims as soon
 *    as events settle (woken by the instance's event hub) and as soon as a
 *    delivery finishes (the next of its lane is due at once), so a fast receiver
 *    gets events at the pace it answers.
 * 3. Each claimed delivery is POSTed, signed, with a timeout; any non-2xx or
 *    failure is retried with exponential backoff and jitter until 24 hours
 *    after the event was queued, then given up.
 *
 * At least once: a delivery that succeeded but whose outcome was not recorded
 * (crash, lost lease) is sent again.
 */
import type { Deps } from '../deps.ts';
import { toEventBody } from '../events/repository.ts';
import { settledEventId } from '../events/horizon.ts';
import type { EventHub } from '../events/hub.ts';
import { accountsWithWebhooks, claimDueDeliveries, finishAttempt, pruneAttempts, queueNewEvents, type ClaimedDelivery } from './queue.ts';
import { postJson } from './sender.ts';
import { signatureHeaders } from './signature.ts';

type DeliveryDeps = Pick<Deps, 'db' | 'config' | 'now' | 'metrics'>;

/** Retries stop this long after the event was queued. */
export const RETRY_WINDOW_MS = 24 * 3600 * 1000;
/** The doubling stops here: later retries come hourly. */
export const MAX_RETRY_DELAY_MS = 3600 * 1000;
/** Retries come up to this fraction later than the nominal delay, so they spread out. */
const JITTER = 0.25;
/** A claim outlives the request timeout by this much before another instance may take over. */
const LEASE_MARGIN_MS = 30_000;
/** Deliveries in flight at once per instance, and per webhook across instances. */
const MAX_IN_FLIGHT = 100;
const MAX_IN_FLIGHT_PER_WEBHOOK = 10;
/** Events moved from the outbox per webhook per pass. */
const QUEUE_BATCH = 1000;
const ATTEMPT_RETENTION_MS = 7 * 24 * 3600 * 1000;
/** How often the worker looks for deliveries that came due with time (retries, expired leases of other instances). */
const DUE_POLL_INTERVAL_MS = 1000;
/** How often the worker forgets old attempts. */
const PRUNE_INTERVAL_MS = 60_000;

/** Delay before retry number `attempt` (1 = the first retry): base doubling, capped, plus jitter. */
export function retryDelayMs(baseMs: number, attempt: number, random: () => number = Math.random): number {
  const nominal = Math.min(baseMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
  return Math.round(nominal * (1 + JITTER * random()));
}

/** When a failed delivery is tried again, or null when its 24 hours are over. */
function retryAt(config: DeliveryDeps['config'], delivery: ClaimedDelivery, failedAt: Date): Date | null {
  const deadline = delivery.queued_at.getTime() + RETRY_WINDOW_MS;
  if (failedAt.getTime() >= deadline) return null;
  // The last retry is at the deadline itself.
  return new Date(Math.min(failedAt.getTime() + retryDelayMs(config.webhookRetryBaseMs, delivery.attempts), deadline));
}

/** Leases up to `limit` due deliveries. */
async function claimDue(deps: DeliveryDeps, limit: number): Promise<ClaimedDelivery[]> {
  const now = deps.now();
  const leasedUntil = new Date(now.getTime() + deps.config.webhookTimeoutMs + LEASE_MARGIN_MS);
  return claimDueDeliveries(deps.db, now, leasedUntil, { limit, perWebhook: MAX_IN_FLIGHT_PER_WEBHOOK });
}

/** Sends one claimed delivery and records the outcome. Returns whether it was delivered. */
async function attempt(deps: DeliveryDeps, delivery: ClaimedDelivery): Promise<boolean> {
  const { id, event, timestamp, account_id, data } = toEventBody(delivery.event);
  const body = JSON.stringify({ type: 'event_callback', id, event, timestamp, account_id, webhook_id: delivery.webhook_id, data });
  const attemptedAt = deps.now();
  const sent = await postJson(
    delivery.url,
    body,
    {
      'content-type': 'application/json',
      'user-agent': 'chat-service-webhooks',
      ...signatureHeaders({
        eventId: id,
        body,
        attemptedAt,
        secret: delivery.secret,
        // The replaced secret signs too until its rotation window ends.
        previousSecret:
          delivery.previous_secret_expires_at && delivery.previous_secret_expires_at > attemptedAt ? delivery.previous_secret : null,
      }),
    },
    { timeoutMs: deps.config.webhookTimeoutMs, blockPrivate: deps.config.webhookBlockPrivate },
  );
  const delivered = sent.statusCode !== null && sent.statusCode >= 200 && sent.statusCode < 300;
  const finishedAt = deps.now();
  const nextAttemptAt = delivered ? null : retryAt(deps.config, delivery, finishedAt);
  await finishAttempt(deps.db, delivery, { attemptedAt, ...sent, nextAttemptAt }, finishedAt);
  const outcome = delivered ? 'delivered' : nextAttemptAt ? 'retrying' : 'failed';
  deps.metrics.webhookDeliveries.inc({ outcome });
  deps.metrics.webhookDeliveryDuration.observe({ outcome }, sent.durationMs / 1000);
  return delivered;
}

function forgetOldAttempts(deps: DeliveryDeps): Promise<void> {
  return pruneAttempts(deps.db, new Date(deps.now().getTime() - ATTEMPT_RETENTION_MS));
}

/**
 * One pass: forgets old attempts, queues new events, sends every due delivery
 * (up to the in-flight limit) and waits for them. Tests call this; servers run
 * startWebhookWorker.
 */
export async function deliverDueWebhooks(deps: DeliveryDeps): Promise<{ attempted: number; delivered: number }> {
  await forgetOldAttempts(deps);
  await queueNewEvents(deps.db, deps.now(), await settledEventId(deps.db), QUEUE_BATCH);
  const claimed = await claimDue(deps, MAX_IN_FLIGHT);
  const results = await Promise.all(claimed.map((delivery) => attempt(deps, delivery)));
  return { attempted: claimed.length, delivered: results.filter(Boolean).length };
}

interface Log {
  error(details: object, message: string): void;
}

/**
 * Delivers continuously. A pass queues the events settled since the last one and
 * claims as many due deliveries as free slots allow, without waiting for the ones
 * in flight, so a slow receiver never delays the others. A pass runs when the
 * hub reports settled events of an account with webhooks, when a delivery
 * finishes (its lane's next one is due now), and every DUE_POLL_INTERVAL_MS for
 * retries; passes never overlap, and requests during one make one more. The
 * accounts with webhooks are looked up at each due poll, so the events of
 * accounts without webhooks cost the worker nothing, and a webhook created on
 * any instance is served within DUE_POLL_INTERVAL_MS. Returns the function that stops it (it waits
 * for the deliveries in flight, at most WEBHOOK_TIMEOUT_MS).
 */
export function startWebhookWorker(deps: DeliveryDeps, events: EventHub, log: Log): () => Promise<void> {
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  let passing: Promise<void> | undefined;
  let passAgain = false;
  // Queueing is skipped while nothing settled since it last found nothing to queue.
  let queuedThrough = -1;

  const pass = async () => {
    const settled = events.settled;
    if (settled > queuedThrough) {
      const served = await queueNewEvents(deps.db, deps.now(), settled, QUEUE_BATCH);
      // A full pass may have left events (per-webhook batches), and webhooks busy in another instance's queueing
      // (-1) still have theirs, which that instance may not see settled yet: queue again next time.
      if (served === 0) queuedThrough = settled;
    }
    const free = MAX_IN_FLIGHT - inFlight.size;
    if (free <= 0) return;
    for (const delivery of await claimDue(deps, free)) {
      const sending = attempt(deps, delivery)
        .catch((error) => log.error({ err: error, webhook_id: delivery.webhook_id }, 'webhook delivery failed'))
        .finally(() => {
          inFlight.delete(sending);
          requestPass();
        });
      inFlight.add(sending);
    }
  };
  function requestPass(): void {
    if (stopped) return;
    if (passing) {
      passAgain = true;
      return;
    }
    passing = (async () => {
      do {
        passAgain = false;
        await pass();
      } while (passAgain && !stopped);
    })()
      .catch((error) => log.error({ err: error }, 'webhook delivery pass failed'))
      .finally(() => (passing = undefined));
  }

  let webhookAccounts = new Set<string>();
  let refreshing: Promise<void> | undefined;
  const refreshWebhookAccounts = async () => {
    const previous = webhookAccounts;
    webhookAccounts = new Set(await accountsWithWebhooks(deps.db));
    // The hub's horizon only moved for accounts somebody read: catch it up for the new ones.
    for (const accountId of webhookAccounts) if (!previous.has(accountId)) events.announce(accountId);
  };
  const duePoll = () => {
    refreshing ??= refreshWebhookAccounts()
      .catch((error) => log.error({ err: error }, 'looking up the accounts with webhooks failed'))
      .finally(() => (refreshing = undefined));
    requestPass();
  };

  const stopWaking = events.watch((accountId) => webhookAccounts.has(accountId), requestPass);
  const dueTimer = setInterval(duePoll, DUE_POLL_INTERVAL_MS);
  let pruning: Promise<void> | undefined;
  const pruneTimer = setInterval(() => {
    pruning ??= forgetOldAttempts(deps)
      .catch((error) => log.error({ err: error }, 'pruning webhook attempts failed'))
      .finally(() => (pruning = undefined));
  }, PRUNE_INTERVAL_MS);
  duePoll();
  return async () => {
    stopped = true;
    stopWaking();
    clearInterval(dueTimer);
    clearInterval(pruneTimer);
    await refreshing;
    await passing;
    await pruning;
    await Promise.all(inFlight);
  };
}
