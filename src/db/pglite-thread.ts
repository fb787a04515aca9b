import { Worker } from 'node:worker_threads';
import { once } from 'node:events';
import { Parser } from 'pg-protocol/dist/parser.js';
import type { BackendMessage } from 'pg-protocol/dist/messages.js';

type WorkerReply =
  | { type: 'ready' | 'closed' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; bytes: Uint8Array }
  | { type: 'error'; id: number; message: string };

interface Waiter {
  resolve: (bytes: Uint8Array) => void;
  reject: (error: Error) => void;
}

/**
 * PGlite running in a worker thread, shaped like the PGlite object that PGlite's
 * own node-postgres adapter drives (`waitReady` and `execProtocolStream`). So the
 * adapter and node-postgres stay the one code path, and the event loop stays free
 * while a query runs: in-thread PGlite froze every request for as long as a query took.
 */
export class PGliteThread {
  readonly waitReady: Promise<void>;
  readonly #worker: Worker;
  readonly #pending = new Map<number, Waiter>();
  #nextId = 1;
  #closing: Promise<void> | undefined;

  constructor(dataDir: string) {
    this.#worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir } });
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.#worker.on('message', (reply: WorkerReply) => {
        if (reply.type === 'ready') resolve();
        else if (reply.type === 'failed') reject(new Error(`PGlite could not open ${dataDir}: ${reply.message}`));
        else if (reply.type === 'result' || reply.type === 'error') this.#settle(reply);
      });
      this.#worker.on('error', (error) => {
        reject(error);
        this.#failAll(error);
      });
      this.#worker.on('exit', () => this.#failAll(new Error('The PGlite worker stopped')));
    });
  }

  #settle(reply: Extract<WorkerReply, { id: number }>): void {
    const waiter = this.#pending.get(reply.id);
    this.#pending.delete(reply.id);
    if (reply.type === 'result') waiter?.resolve(reply.bytes);
    else waiter?.reject(new Error(reply.message));
  }

  #failAll(error: Error): void {
    for (const waiter of this.#pending.values()) waiter.reject(error);
    this.#pending.clear();
  }

  async execProtocolStream(bytes: Uint8Array): Promise<BackendMessage[]> {
    const id = this.#nextId++;
    const response = await new Promise<Uint8Array>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ type: 'query', id, bytes });
    });
    const messages: BackendMessage[] = [];
    new Parser().parse(Buffer.from(response.buffer, response.byteOffset, response.byteLength), (message) => messages.push(message));
    return messages;
  }

  /** Closes PGlite cleanly (it flushes its files), then ends the thread. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const exited = once(this.#worker, 'exit');
      const closed = new Promise<void>((resolve) => {
        this.#worker.on('message', (reply: WorkerReply) => reply.type === 'closed' && resolve());
      });
      this.#worker.postMessage({ type: 'close' });
      await Promise.race([closed, exited]);
      await this.#worker.terminate();
    })();
    return this.#closing;
  }
}
