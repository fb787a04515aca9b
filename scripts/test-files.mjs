// The suite's test files: every *.test.ts under src/ (the server's) and clients/ (clients/typescript runs its generated
// client against the server), sorted. scripts/test.mjs, scripts/with-pgbouncer.ts and scripts/with-prism.ts run them.
import { readdirSync } from 'node:fs';
import path from 'node:path';

function testFilesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFilesUnder(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

export function suiteTestFiles() {
  return [...testFilesUnder('src'), ...testFilesUnder('clients')].sort();
}
