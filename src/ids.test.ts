import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId, randomString } from './ids.ts';

describe('random ids and secrets', () => {
  it('never repeat across the random pool’s refills, and use only the URL-safe alphabet', () => {
    const seen = new Set<string>();
    // 2,000 × 12 bytes: six refills of the 4,096-byte pool, and draws that end exactly at its end.
    for (let i = 0; i < 2000; i++) seen.add(newId('ms'));
    assert.equal(seen.size, 2000);
    for (const id of seen) assert.match(id, /^ms[\w-]{12}$/);
  });

  it('serve lengths past the pool, each character still one of 64', () => {
    const long = randomString(10_000);
    assert.equal(long.length, 10_000);
    assert.match(long, /^[\w-]+$/);
    // 64 letters over 10,000 draws: every one of them appears.
    assert.equal(new Set(long).size, 64);
  });
});
