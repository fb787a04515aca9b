import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from './deps.ts';
import type { EventHub } from './events/hub.ts';
import { startWebhookWorker } from './webhooks/delivery.ts';
import { closeIdleConversations } from './conversations/inactivity.ts';
import { deleteExpiredUploads } from './uploads/retention.ts';
import { deleteOldEvents } from './events/retention.ts';
import { deleteOldMessages } from './conversations/retention.ts';
import { createMonthPartitions } from './db/partitions.ts';
import { dropEmptyDeliveryMonths } from './webhooks/queue.ts';
import { deleteExpiredIdempotencyKeys } from './idempotency/service.ts';
import { finishStalledErasures } from './contacts/erasure.ts';
import { maintainTables, maintenanceSettings, maintenanceWarning } from './db/maintenance.ts';
import { measuredJob } from './metrics/metrics.ts';

export interface BackgroundJobs {
  stop(): Promise<void>;
}

/** How often idle conversations are looked for: a close lands at most this late (finished_at is exact anyway). */
const INACTIVITY_INTERVAL_MS = 15_000;
/**
 * How often the tables are checked for ANALYZE/VACUUM: a sixth of autovacuum's default naptime,
 * since until a growing table is first analyzed, connections keep plans made when it was empty
 * (src/db/maintenance.ts). A pass with nothing due is one query on the statistics views.
 */
const MAINTENANCE_INTERVAL_MS = 10_000;
/** How often abandoned contact erasures are looked for. */
const ERASURE_INTERVAL_MS = 60_000;
/** How often the retention passes run. */
const RETENTION_INTERVAL_MS = 10 * 60_000;
/** How often the month partitions ahead are checked (src/db/partitions.ts); a pass with nothing to create is 16 catalog lookups. */
const PARTITIONS_INTERVAL_MS = 60 * 60_000;

/**
 * Runs `pass` every `intervalMs` (never two at once in this instance); returns a
 * stop function that waits for a running pass.
 */
function every(
  intervalMs: number,
  pass: () => Promise<number>,
  log: FastifyBaseLogger,
  what: string,
  { atStart = false } = {},
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const run = () => {
    if (running) return;
    running = pass()
      .then((count) => {
        if (count > 0) log.info({ count }, what);
      })
      .catch((error) => log.error({ err: error }, `${what}: failed`))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  if (atStart) run();
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
      job('message_retention', () => deleteOldMessages(deps)),
      log,
      'deleted old messages and paths (MESSAGE_RETENTION_DAYS)',
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
  // Month partitions (migration 230): the current month and the next ones exist before a row needs them, also right
  // after a start; a past month of the webhook queue goes once empty.
  stops.push(
    every(
      PARTITIONS_INTERVAL_MS,
      job('month_partitions', async () => (await createMonthPartitions(deps)) + (await dropEmptyDeliveryMonths(deps.db, deps.now()))),
      log,
      'created month partitions',
      { atStart: true },
    ),
  );
  // Erasures of contacts abandoned part-way (docs/behaviour.md §4 "Erasure"), also right after a restart.
  stops.push(
    every(
      ERASURE_INTERVAL_MS,
      job('contact_erasure', () => finishStalledErasures(deps)),
      log,
      'finished abandoned contact erasures',
      {
        atStart: true,
      },
    ),
  );
  // PGlite has no autovacuum, and a PostgreSQL server may run without it: the planner's statistics
  // would stay those of the first minutes (src/db/maintenance.ts). A pass at start too: a restart may
  // find statistics left stale by a server without autovacuum.
  let warned = false;
  stops.push(
    every(
      MAINTENANCE_INTERVAL_MS,
      job('table_maintenance', async () => {
        const settings = await maintenanceSettings(deps.db);
        const warning = warned ? null : maintenanceWarning(settings);
        warned = true;
        if (warning) log.warn(warning);
        return maintainTables(deps.db, settings);
      }),
      log,
      'analyzed or vacuumed tables (table maintenance)',
      { atStart: true },
    ),
  );
  return {
    async stop() {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
