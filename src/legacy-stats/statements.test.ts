import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { byUnit, totalsStatement, type StatsScope } from './repository.ts';
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
      assert.deepEqual(placeholders(sql), params.map((_, i) => i + 1), name);
    }
    assert.deepEqual(statements[0].params, ['acc1', 'Europe/Prague', '2024-03-01', '2024-03-31', null]);
    for (const statement of statements.slice(1)) assert.deepEqual(statement.params, [...statements[0].params, statement.name]);
  });

  it('write their column lists with one comma between columns, labels or not', () => {
    for (const { name, sql } of statements) {
      assert.doesNotMatch(sql, /,\s*,|select\s*,|,\s*from\b/i, name);
    }
  });
});
