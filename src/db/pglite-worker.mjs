// Runs PGlite in a worker thread so its queries (WASM, synchronous while they
// run) never block the HTTP server's event loop. Plain JavaScript so it needs no
// TypeScript loader. The main thread sends wire-protocol bytes and gets back the
// raw response bytes (see src/db/pglite-thread.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

let lite;
try {
  lite = await PGlite.create(workerData.dataDir);
  parentPort.postMessage({ type: 'ready' });
} catch (error) {
  parentPort.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}

parentPort.on('message', async (request) => {
  if (request.type === 'close') {
    await lite?.close();
    parentPort.postMessage({ type: 'closed' });
    return;
  }
  try {
    // execProtocol (not execProtocolRaw) resets PGlite's per-call parser state;
    // errors stay in the response bytes for node-postgres to report.
    const { data } = await lite.execProtocol(request.bytes, { throwOnError: false });
    const copy = new Uint8Array(data);
    parentPort.postMessage({ type: 'result', id: request.id, bytes: copy }, [copy.buffer]);
  } catch (error) {
    parentPort.postMessage({ type: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) });
  }
});
