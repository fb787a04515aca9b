import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import type { Metrics } from './metrics/metrics.ts';

/** What the app and its services depend on; built in src/server.ts or by the tests. */
export interface Deps {
  db: Db;
  config: Config;
  /** The clock; tests may pass a fixed or adjustable one. */
  now: () => Date;
  /** This app's Prometheus registry and instruments (src/metrics/metrics.ts). */
  metrics: Metrics;
}
