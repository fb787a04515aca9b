import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from './deps.ts';

export interface BackgroundJobs {
  stop(): Promise<void>;
}

/**
 * Background work of a running server (not of the tests, which call each job's
 * single-pass function directly). Each job must be safe with several instances
 * on one PostgreSQL database.
 */
export function startBackgroundJobs(_deps: Deps, _log: FastifyBaseLogger): BackgroundJobs {
  const stops: (() => Promise<void>)[] = [];
  // Inactivity auto-close (issue 3) and webhook delivery (issue 6) are started here.
  return {
    async stop() {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
