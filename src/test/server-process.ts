/**
 * A server process a test helper started (PgBouncer, nginx, PostgreSQL: src/test/pgbouncer.ts, nginx.ts, replica.ts):
 * waiting until it answers, and stopping it once.
 */
import type { ChildProcess } from 'node:child_process';

export interface ReadyOptions {
  /** What it is, for the error when it exits: `<name> exited with <code>`. */
  name: string;
  timeoutMs: number;
  pollMs: number;
  /** Why it does not answer yet (the error's first line at the deadline), or undefined once it does. */
  notReady(): Promise<string | undefined>;
  /** Its output so far, read before `giveUp` (which may remove it). */
  output(): string;
  /** What to do before throwing: the process has exited, or it is still running at the deadline. */
  giveUp(): void;
}

/** Resolves once `notReady` says the process answers; throws with its output when it exits first or the deadline passes. */
export async function waitUntilReady(child: ChildProcess, options: ReadyOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  const fail = (message: string) => {
    const output = options.output();
    options.giveUp();
    return new Error(`${message}\n${output}`);
  };
  for (;;) {
    if (child.exitCode !== null) throw fail(`${options.name} exited with ${child.exitCode}:`);
    const reason = await options.notReady();
    if (reason === undefined) return;
    if (Date.now() > deadline) throw fail(reason);
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
}

/**
 * `stop()` of a started server: SIGTERM (an immediate shutdown for PgBouncer and nginx, which would wait for their
 * clients on SIGINT or SIGQUIT), waited for, then `cleanup`; once, however often it is called.
 */
export function stopOnce(child: ChildProcess, exited: Promise<void>, cleanup: () => void): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () =>
    (stopping ??= (async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      cleanup();
    })());
}
