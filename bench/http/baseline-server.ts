/**
 * The baseline of `npm run bench:http`: bare Fastify and the plainest driver on
 * the service's own tables, with none of the service's rules, validation or auth:
 * node-postgres for PostgreSQL, PGlite's own API on the main thread for PGlite
 * (no worker hop, no wire protocol: the fastest PGlite there is). What it reaches
 * is the ceiling the service is compared with.
 *
 *   GET  /conversations/:id           one primary-key select
 *   POST /conversations               one transaction: a conversation, 3 messages, its update, 4 outbox rows
 *   POST /conversations/:id/messages  one transaction: a message, the conversation's update, 1 outbox row
 *
 * Run as a child process by bench/http.ts with BASELINE_ACCOUNT and
 * BASELINE_CONTACT naming rows the service created; prints "listening on <url>".
 */
import Fastify from 'fastify';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { openDb, type Queryable } from '../../src/db/db.ts';

interface BareDb extends Queryable {
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function openBareDb(): Promise<BareDb> {
  if (process.env.DATABASE_URL) return openDb({ databaseUrl: process.env.DATABASE_URL });
  // The contrib extensions the schema uses, as the service's worker loads them (src/db/pglite-worker.mjs): without
  // unaccent every insert into messages fails (its search column, migration 220).
  const lite = await PGlite.create(process.env.DATA_DIR as string, { extensions: { unaccent, pg_trgm } });
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    query: async (sql, params) => {
      const result = await q.query(sql, params);
      return { rows: result.rows as never[], rowCount: result.affectedRows ?? result.rows.length };
    },
  });
  return {
    ...wrap(lite),
    transaction: (fn) => lite.transaction((tx) => fn(wrap(tx))),
    close: () => lite.close(),
  };
}

const db = await openBareDb();
const account = process.env.BASELINE_ACCOUNT as string;
const contact = process.env.BASELINE_CONTACT as string;
const id = (prefix: string) => prefix + randomBytes(9).toString('base64url');
/** Outbox ids of the baseline: far above the service's, from a plain sequence (no per-account counter). */
await db.query('create sequence if not exists baseline_event_ids start 1000000000000');

const MESSAGE_COLUMNS = 'account_id, id, conversation_id, type, sub_type, content, text, created_at';
const insertEvents = (count: number) =>
  `insert into events (account_id, id, type, conversation_id, data, created_at)
   select $1, nextval('baseline_event_ids'), 'conversation.contact_replied', $2, '{}'::jsonb, $3 from generate_series(1, ${count})`;

const app = Fastify({ logger: false });

app.get<{ Params: { id: string } }>('/conversations/:id', async (request, reply) => {
  const { rows } = await db.query('select * from conversations where account_id = $1 and id = $2', [account, request.params.id]);
  if (rows.length === 0) return reply.code(404).send({ code: 'not_found' });
  return rows[0];
});

app.post('/conversations', async () => {
  const conversationId = id('co');
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into conversations (account_id, id, status, contact_id, created_at, updated_at) values ($1, $2, 'pending', $3, $4, $4)`,
      [account, conversationId, contact, new Date()],
    );
    for (let i = 0; i < 3; i++) {
      await tx.query(
        `insert into messages (${MESSAGE_COLUMNS}) values ($1, $2, $3, 'message', 'contact', '{"type":"text","text":"hi"}', 'hi', now())`,
        [account, id('ms'), conversationId],
      );
    }
    await tx.query(
      `update conversations set status = 'open', unread = 3, last_message_text = 'hi', last_message_at = now() where account_id = $1 and id = $2`,
      [account, conversationId],
    );
    await tx.query(insertEvents(4), [account, conversationId, new Date()]);
  });
  return { id: conversationId };
});

app.post<{ Params: { id: string } }>('/conversations/:id/messages', async (request) => {
  const messageId = id('ms');
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into messages (${MESSAGE_COLUMNS}) values ($1, $2, $3, 'message', 'contact', '{"type":"text","text":"hi"}', 'hi', now())`,
      [account, messageId, request.params.id],
    );
    await tx.query(`update conversations set unread = unread + 1, last_message_at = now() where account_id = $1 and id = $2`, [
      account,
      request.params.id,
    ]);
    await tx.query(insertEvents(1), [account, request.params.id, new Date()]);
  });
  return { id: messageId };
});

const url = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening on ${url}`);
const stop = async () => {
  await app.close();
  await db.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
