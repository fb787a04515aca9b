import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from './deps.ts';
import { startWebhookWorker } from './webhooks/delivery.ts';
import { startInactivityJob } from './conversations/inactivity.ts';

export interface BackgroundJobs {
  stop(): Promise<void>;
}

/**
 * Background work of a running server (not of the tests, which call each job's
 * single-pass function directly). Each job must be safe with several instances
 * on one PostgreSQL database.
 */
export function startBackgroundJobs(deps: Deps, log: FastifyBaseLogger): BackgroundJobs {
  const stops: (() => Promise<void>)[] = [];
  // Inactivity auto-close (issue 3) and webhook delivery (issue 6) are started here.
  stops.push(startWebhookWorker(deps, log));
  stops.push(startInactivityJob(deps, log));
  return {
    async stop() {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
