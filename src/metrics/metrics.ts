/**
 * Prometheus metrics (docs/operations.md "Metrics"). One registry per app, never
 * prom-client's global one, so several apps in one process (the tests) keep
 * their own counts; it travels in Deps. What reads the database at scrape time
 * (pool, outbox) is registered by measuredDb (src/metrics/db.ts).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type LabelValues } from 'prom-client';

export interface Metrics {
  registry: Registry;
  httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  rateLimitRejections: Counter<'route'>;
  dbQueryDuration: Histogram<'kind' | 'lane' | 'outcome'>;
  dbQueriesInFlight: Gauge;
  webhookDeliveries: Counter<'outcome'>;
  webhookDeliveryDuration: Histogram<'outcome'>;
  eventStreamsOpen: Gauge;
  jobDuration: Histogram<'job' | 'outcome'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: 'chat_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status: latency until the response is sent (its _count counts them)',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    rateLimitRejections: new Counter({
      name: 'chat_rate_limit_rejections_total',
      help: 'Requests refused with 429 by the rate limit, by route pattern',
      labelNames: ['route'],
      registers,
    }),
    dbQueryDuration: new Histogram({
      name: 'chat_db_query_duration_seconds',
      help: 'Database statements (kind="query", inside transactions too) and whole transactions (kind="transaction") by lane (small, heavy), including the wait for a connection',
      labelNames: ['kind', 'lane', 'outcome'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    dbQueriesInFlight: new Gauge({
      name: 'chat_db_queries_in_flight',
      help: 'Database statements started and not yet answered, waiting for a connection or running',
      registers,
    }),
    webhookDeliveries: new Counter({
      name: 'chat_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome: delivered (2xx), retrying (failed, tried again later), failed (failed, given up)',
      labelNames: ['outcome'],
      registers,
    }),
    webhookDeliveryDuration: new Histogram({
      name: 'chat_webhook_delivery_duration_seconds',
      help: 'Webhook delivery attempts: time until the receiver answered (or the attempt failed), by outcome',
      labelNames: ['outcome'],
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    eventStreamsOpen: new Gauge({
      name: 'chat_event_streams_open',
      help: 'Server-Sent Events streams (GET /v2/events) open on this instance',
      registers,
    }),
    jobDuration: new Histogram({
      name: 'chat_job_duration_seconds',
      help: 'Background job passes (inactivity_close, upload_retention, event_retention, message_retention, idempotency_retention, month_partitions, contact_erasure, table_maintenance) by outcome: duration (its _count counts the runs)',
      labelNames: ['job', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
      registers,
    }),
  };
}

/** Runs `fn`, observing its duration in `histogram` with `labels` and outcome="ok" or "error". */
export async function timed<L extends string, T>(histogram: Histogram<L>, labels: LabelValues<L>, fn: () => Promise<T>): Promise<T> {
  const end = histogram.startTimer(labels);
  try {
    const result = await fn();
    end({ outcome: 'ok' } as LabelValues<L>);
    return result;
  } catch (error) {
    end({ outcome: 'error' } as LabelValues<L>);
    throw error;
  }
}

/** `pass` recording each run's duration and outcome under `job` (src/jobs.ts). */
export function measuredJob<T>(metrics: Metrics, job: string, pass: () => Promise<T>): () => Promise<T> {
  return () => timed(metrics.jobDuration, { job }, pass);
}
