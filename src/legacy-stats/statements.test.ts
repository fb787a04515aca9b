import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { byUnit, chunkedRecords, chunkScopes, CHUNK_CONCURRENCY, totalsStatement, unitCount, type StatsScope } from './repository.ts';
import { INTERVALS } from './schema.ts';

const scope: StatsScope = { accountId: 'acc1', timezone: 'Europe/Prague', from: '2024-03-01', to: '2024-03-31', group: null };

/** The placeholders a statement's text uses, in numeric order. */
const placeholders = (sql: string) => [...new Set(sql.match(/\$\d+/g))].map((p) => Number(p.slice(1))).sort((a, b) => a - b);

describe('legacy export statements', () => {
  const statements = [
    { name: 'totals', ...totalsStatement(scope) },
    ...INTERVALS.map((interval) => ({ name: interval, ...byUnit(scope, interval, 'select * from overview_rows') })),
  ];

  it('use every parameter they carry and no other: placeholders come from the values, not from a count kept by hand', () => {
    for (const { name, sql, params } of statements) {
      assert.deepEqual(
        placeholders(sql),
        params.map((_, i) => i + 1),
        name,
      );
    }
    assert.deepEqual(statements[0]!.params, ['acc1', 'Europe/Prague', '2024-03-01', '2024-03-31', null]);
    for (const statement of statements.slice(1)) assert.deepEqual(statement.params, [...statements[0]!.params, statement.name]);
  });

  it('write their column lists with one comma between columns, labels or not', () => {
    for (const { name, sql } of statements) {
      assert.doesNotMatch(sql, /,\s*,|select\s*,|,\s*from\b/i, name);
    }
  });
});

describe('chunks of a long export', () => {
  const spans = (from: string, to: string, interval: 'day' | 'week' | 'month') =>
    chunkScopes({ ...scope, from, to }, interval).map((chunk) => `${chunk.from}..${chunk.to}`);

  it('leaves a range of a month or less whole', () => {
    assert.deepEqual(spans('2024-03-01', '2024-03-31', 'day'), ['2024-03-01..2024-03-28', '2024-03-29..2024-03-31']);
    assert.deepEqual(spans('2024-03-01', '2024-03-31', 'month'), ['2024-03-01..2024-03-31']);
    assert.deepEqual(spans('2024-03-05', '2024-03-05', 'week'), ['2024-03-05..2024-03-05']);
  });

  it('cuts a year by month into calendar months, the first one cut at the start of the range and joined to the next', () => {
    assert.deepEqual(spans('2024-01-15', '2024-12-10', 'month'), [
      '2024-01-15..2024-02-29',
      ...['03', '04', '05', '06', '07', '08', '09', '10', '11'].map(
        (m) => `2024-${m}-01..2024-${m}-${new Date(Date.UTC(2024, Number(m), 0)).getUTCDate()}`,
      ),
      '2024-12-01..2024-12-10',
    ]);
  });

  it('cuts weeks on Mondays, four weeks a chunk, and covers every day of the range once', () => {
    for (const interval of ['day', 'week', 'month'] as const) {
      const chunks = chunkScopes({ ...scope, from: '2023-12-28', to: '2025-03-02' }, interval);
      assert.equal(chunks[0]!.from, '2023-12-28');
      assert.equal(chunks.at(-1)?.to, '2025-03-02');
      for (let i = 1; i < chunks.length; i++) {
        const next = new Date(`${chunks[i - 1]!.to}T00:00:00Z`);
        next.setUTCDate(next.getUTCDate() + 1);
        assert.equal(chunks[i]!.from, next.toISOString().slice(0, 10), `${interval}: chunk ${i} follows the previous one`);
        const start = new Date(`${chunks[i]!.from}T00:00:00Z`);
        if (interval === 'week') assert.equal(start.getUTCDay(), 1, `${interval}: chunk ${i} starts on a Monday`);
        if (interval === 'month') assert.equal(start.getUTCDate(), 1, `${interval}: chunk ${i} starts on the 1st`);
      }
      if (interval === 'week') assert.ok(chunks.slice(1, -1).every((c) => (Date.parse(c.to) - Date.parse(c.from)) / 86_400_000 === 27));
    }
  });
});

describe('running the chunks of a long export', () => {
  it(`runs at most ${CHUNK_CONCURRENCY} chunks at once and keeps their records in order`, async () => {
    let running = 0;
    let most = 0;
    const records = await chunkedRecords(
      Array.from({ length: 40 }, (_, i) => i),
      async (chunk) => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, chunk % 3));
        running--;
        return [chunk * 2, chunk * 2 + 1];
      },
    );
    assert.equal(most, CHUNK_CONCURRENCY);
    assert.deepEqual(
      records,
      Array.from({ length: 80 }, (_, i) => i),
    );
  });

  it('starts no chunk after one failed, and fails with its error', async () => {
    const started: number[] = [];
    await assert.rejects(
      chunkedRecords(
        Array.from({ length: 10 }, (_, i) => i),
        async (chunk) => {
          started.push(chunk);
          if (chunk === 2) throw new Error('chunk 2 failed');
          return [chunk];
        },
      ),
      /chunk 2 failed/,
    );
    assert.ok(started.length <= 2 + CHUNK_CONCURRENCY, started.join(','));
  });
});

describe('units of an export', () => {
  it('counts every unit the range overlaps', () => {
    const units = (from: string, to: string, interval: 'day' | 'week' | 'month') => unitCount({ ...scope, from, to }, interval);
    assert.equal(units('2024-01-01', '2024-12-31', 'day'), 366);
    assert.equal(units('2024-01-01', '2024-12-31', 'month'), 12);
    assert.equal(units('2024-01-31', '2024-02-01', 'month'), 2);
    // 2024-01-01 is a Monday; 2024-12-31 a Tuesday, in the week of 2024-12-30.
    assert.equal(units('2024-01-01', '2024-12-31', 'week'), 53);
    assert.equal(units('2024-01-07', '2024-01-08', 'week'), 2);
    assert.equal(units('2024-03-05', '2024-03-05', 'day'), 1);
  });
});
