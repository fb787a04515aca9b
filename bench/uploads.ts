/**
 * `npm run bench:uploads`: the memory an instance uses while it receives uploads (issue 18.13), over real HTTP
 * against the real service (`chat-service serve`, bench/http/harness.ts; run `npm run build` first), per engine:
 * BENCH_UPLOADS (8) concurrent raw uploads of 20 MiB each, and the process's resident memory before, at its peak
 * (VmHWM, Linux) and after. A service that buffered bodies whole would grow by at least their sum.
 *
 *   BENCH_ENGINES=postgres,pglite   engines to run (default both)
 *   BENCH_UPLOADS=8                 concurrent uploads
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   server for the fresh databases
 */
import { readFileSync } from 'node:fs';
import { freshStorage, startService, type Engine } from './http/harness.ts';

const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',') as Engine[];
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 8);
const FILE = new Uint8Array(20 * 1024 * 1024).fill(3);

/** A memory figure of /proc/<pid>/status, in MiB. */
function memory(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(match?.[1] ?? NaN) / 1024);
}

for (const engine of ENGINES) {
  const storage = await freshStorage(engine);
  const service = await startService(storage, { UPLOAD_QUOTA_BYTES_PER_DAY: String(2 * UPLOADS * FILE.length) });
  try {
    const upload = (name: string, body: Uint8Array<ArrayBuffer>) =>
      fetch(`${service.url}/v2/uploads?file_name=${name}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/octet-stream' },
        body,
      }).then((response) => response.status);
    await upload('warm-up.bin', new Uint8Array(1000)); // the route, its plugins and the statements ready
    const pid = service.child.pid as number;
    const before = memory(pid, 'VmRSS');
    const started = Date.now();
    const statuses = await Promise.all(Array.from({ length: UPLOADS }, (_, i) => upload(`f${i}.bin`, FILE)));
    const seconds = (Date.now() - started) / 1000;
    const peak = memory(pid, 'VmHWM');
    console.log(
      `${engine}: ${UPLOADS} concurrent 20 MiB uploads (${UPLOADS * 20} MiB of bodies), answers ${[...new Set(statuses)].join(',')} ` +
        `in ${seconds.toFixed(1)} s; resident memory ${before} MiB before, peak ${peak} MiB (+${peak - before} MiB), ` +
        `${memory(pid, 'VmRSS')} MiB after`,
    );
  } finally {
    await service.stop();
    await storage.drop();
  }
}
