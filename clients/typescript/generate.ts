/**
 * Generates clients/typescript/schema.d.ts, the types of the typed client, from the
 * OpenAPI document the app serves (openapi-typescript). `npm run client:generate`
 * runs this file; clients/typescript/client.test.ts fails when the committed file
 * differs from what this produces.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDb } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createMetrics } from '../../src/metrics/metrics.ts';

export const SCHEMA_FILE = new URL('./schema.d.ts', import.meta.url);

const HEADER =
  '// Generated from the OpenAPI document (GET /v2/openapi.json) by `npm run client:generate`\n' +
  '// (clients/typescript/generate.ts, openapi-typescript). Do not edit: regenerate.\n\n';

/** The TypeScript declarations of `document`, as schema.d.ts holds them. */
export async function clientSchema(document: object): Promise<string> {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], { silent: true });
  return HEADER + astToString(ast);
}

/** The document the app serves; building the app needs a migrated database (its event hub reads the outbox at start). */
async function servedDocument(): Promise<object> {
  const db = await openDb({ dataDir: 'memory' });
  await migrate(db);
  const app = await buildApp({ db, config: loadConfig({}), now: () => new Date(), metrics: createMetrics() }, { logger: false });
  try {
    await app.ready();
    return (await app.inject({ url: '/v2/openapi.json' })).json();
  } finally {
    await app.close();
    await db.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(SCHEMA_FILE, await clientSchema(await servedDocument()));
  console.log(`wrote ${SCHEMA_FILE.pathname}`);
}
