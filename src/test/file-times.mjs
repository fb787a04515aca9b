/**
 * A node:test reporter for `npm test`: after the run, the time each test file
 * took (the sum of its top-level tests and suites, which includes the file's
 * setup), slowest first, so CI logs show where the time goes.
 */
export default async function* fileTimes(source) {
  const perFile = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      const entry = perFile.get(event.data.file) ?? { ms: 0, failed: false };
      entry.ms += event.data.details.duration_ms;
      entry.failed ||= event.type === 'test:fail';
      perFile.set(event.data.file, entry);
    }
  }
  if (perFile.size === 0) return;
  yield '\nTime per test file:\n';
  for (const [file, { ms, failed }] of [...perFile].sort((a, b) => b[1].ms - a[1].ms)) {
    yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${file.replace(`${process.cwd()}/`, '')}${failed ? '  (failed)' : ''}\n`;
  }
}
