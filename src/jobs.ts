import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from './deps.ts';
import { startWebhookWorker } from './webhooks/delivery.ts';
import { closeIdleConversations } from './conversations/inactivity.ts';
import { deleteExpiredUploads } from './uploads/retention.ts';
import { deleteOldEvents } from './events/retention.ts';

export interface BackgroundJobs {
  stop(): Promise<void>;
}

/** How often idle conversations are looked for: a close lands at most this late (finished_at is exact anyway). */
const INACTIVITY_INTERVAL_MS = 15_000;
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
export function startBackgroundJobs(deps: Deps, log: FastifyBaseLogger): BackgroundJobs {
  const stops: (() => Promise<void>)[] = [];
  stops.push(startWebhookWorker(deps, log));
  stops.push(every(INACTIVITY_INTERVAL_MS, () => closeIdleConversations(deps), log, 'closed idle conversations'));
  // Retention: expired uploads never attached, and outbox events past EVENT_RETENTION_DAYS no webhook still needs.
  stops.push(every(RETENTION_INTERVAL_MS, () => deleteExpiredUploads(deps), log, 'deleted expired unattached uploads'));
  stops.push(every(RETENTION_INTERVAL_MS, () => deleteOldEvents(deps), log, 'deleted old events'));
  return {
    async stop() {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
