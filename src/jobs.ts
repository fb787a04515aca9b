import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from './deps.ts';
import type { EventHub } from './events/hub.ts';
import { startWebhookWorker } from './webhooks/delivery.ts';
import { closeIdleConversations } from './conversations/inactivity.ts';
import { deleteExpiredUploads } from './uploads/retention.ts';
import { deleteOldEvents } from './events/retention.ts';
import { deleteExpiredIdempotencyKeys } from './idempotency/service.ts';
import { maintainTables } from './db/maintenance.ts';
import { measuredJob } from './metrics/metrics.ts';

export interface BackgroundJobs {
  stop(): Promise<void>;
}

/** How often idle conversations are looked for: a close lands at most this late (finished_at is exact anyway). */
const INACTIVITY_INTERVAL_MS = 15_000;
/** How often PGlite's tables are checked for ANALYZE/VACUUM (autovacuum's default naptime). */
const MAINTENANCE_INTERVAL_MS = 60_000;
/** How often the retention passes run. */
const RETENTION_INTERVAL_MS = 10 * 60_000;

/**
 * Runs `pass` every `intervalMs` (never two at once in this instance); returns a
 * stop function that waits for a running pass.
 */
function every(intervalMs: number, pass: () => Promise<number>, log: FastifyBaseLogger, what: string): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = pass()
      .then((count) => {
        if (count > 0) log.info({ count }, what);
      })
      .catch((error) => log.error({ err: error }, `${what}: failed`))
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * Background work of a running server (not of the tests, which call each job's
 * single-pass function directly). Each job must be safe with several instances
 * on one PostgreSQL database.
 */
export function startBackgroundJobs(deps: Deps, events: EventHub, log: FastifyBaseLogger): BackgroundJobs {
  const stops: (() => Promise<void>)[] = [];
  stops.push(startWebhookWorker(deps, events, log));
  const job = (name: string, pass: () => Promise<number>) => measuredJob(deps.metrics, name, pass);
  stops.push(
    every(
      INACTIVITY_INTERVAL_MS,
      job('inactivity_close', () => closeIdleConversations(deps)),
      log,
      'closed idle conversations',
    ),
  );
  // Retention: expired uploads never attached, outbox events past EVENT_RETENTION_DAYS no webhook still needs,
  // and idempotency keys older than 24 hours.
  stops.push(
    every(
      RETENTION_INTERVAL_MS,
      job('upload_retention', () => deleteExpiredUploads(deps)),
      log,
      'deleted expired unattached uploads',
    ),
  );
  stops.push(
    every(
      RETENTION_INTERVAL_MS,
      job('event_retention', () => deleteOldEvents(deps)),
      log,
      'deleted old events',
    ),
  );
  stops.push(
    every(
      RETENTION_INTERVAL_MS,
      job('idempotency_retention', () => deleteExpiredIdempotencyKeys(deps)),
      log,
      'deleted expired idempotency keys',
    ),
  );
  // PGlite has no autovacuum: without this, statistics queries slow down as data grows.
  stops.push(
    every(
      MAINTENANCE_INTERVAL_MS,
      job('pglite_maintenance', () => maintainTables(deps.db)),
      log,
      'analyzed tables (PGlite maintenance)',
    ),
  );
  return {
    async stop() {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
