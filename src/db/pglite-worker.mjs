// Runs PGlite in a worker thread so its queries (WASM, synchronous while they
// run) never block the HTTP server's event loop. Plain JavaScript so it needs no
// TypeScript loader. The main thread sends wire-protocol bytes and gets back the
// raw response bytes (see src/db/pglite-thread.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { Blob } from 'node:buffer';
import { PGlite } from '@electric-sql/pglite';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

let lite;
try {
  // loadDataDir: a backup (chat-service restore) unpacked into the empty directory first.
  const options = workerData.loadDataDir ? { loadDataDir: new Blob([workerData.loadDataDir]) } : {};
  // The contrib extensions the schema uses (migration 220: search), as PostgreSQL's contrib package ships them:
  // PGlite only offers them to CREATE EXTENSION when they are loaded here.
  lite = await PGlite.create(workerData.dataDir, { ...options, extensions: { unaccent, pg_trgm } });
  parentPort.postMessage({ type: 'ready' });
} catch (error) {
  parentPort.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}

/**
 * The chunks in one array of its own, to transfer to the main thread (not Buffer.concat: a small Buffer may share
 * Node's pool, which a transfer would take away from the thread).
 */
function joined(chunks, length) {
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

parentPort.on('message', async (request) => {
  if (request.type === 'close') {
    await lite?.close();
    parentPort.postMessage({ type: 'closed' });
    return;
  }
  if (request.type === 'dump') {
    // chat-service backup: the whole data directory as a gzipped tarball.
    try {
      const file = await lite.dumpDataDir('gzip');
      const bytes = new Uint8Array(await file.arrayBuffer());
      parentPort.postMessage({ type: 'result', id: request.id, bytes }, [bytes.buffer]);
    } catch (error) {
      parentPort.postMessage({ type: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) });
    }
    return;
  }
  try {
    // The response's bytes as they come, unparsed: node-postgres parses them on the main thread (execProtocol would
    // parse every message here too, and throw the objects away). Errors stay in the bytes for it to report.
    const chunks = [];
    let length = 0;
    await lite.execProtocolRawStream(request.bytes, {
      // A view into PGlite's memory, valid only during the call.
      onRawData: (chunk) => {
        chunks.push(chunk.slice());
        length += chunk.length;
      },
    });
    const bytes = chunks.length === 1 ? chunks[0] : joined(chunks, length);
    parentPort.postMessage({ type: 'result', id: request.id, bytes }, [bytes.buffer]);
  } catch (error) {
    parentPort.postMessage({ type: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) });
  }
});
