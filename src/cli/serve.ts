import type { Command } from 'commander';
import type { Config } from '../config.ts';

/** `chat-service serve`: the HTTP service, stopped gracefully on SIGTERM and SIGINT within SHUTDOWN_TIMEOUT_MS. */
export function registerServeCommand(program: Command, config: () => Config): void {
  program
    .command('serve')
    .description('start the HTTP service (what `npm start` runs)')
    .action(async () => {
      const { startServer } = await import('../server.ts');
      const settings = config();
      const server = await startServer(settings);
      const log = server.app.log;
      const now = new AbortController();
      let shuttingDown = false;
      const shutdown = (signal: string) => {
        if (shuttingDown) {
          // A second signal: stop waiting for requests, close the database at once.
          log.warn({ signal }, 'shutting down now: requests still running are cut');
          now.abort();
          return;
        }
        shuttingDown = true;
        log.info({ signal }, 'shutting down');
        // The last resort: stop() is over within SHUTDOWN_TIMEOUT_MS, the database closed (src/server.ts);
        // only a database that does not answer its close at all gets here.
        setTimeout(() => {
          log.error(
            { timeoutMs: settings.shutdownTimeoutMs },
            'shutdown timed out (SHUTDOWN_TIMEOUT_MS): exiting before the database closed',
          );
          process.exit(1);
        }, settings.shutdownTimeoutMs).unref();
        server
          .stop({ timeoutMs: settings.shutdownTimeoutMs, now: now.signal })
          .then(({ cut }) => {
            if (cut)
              log.error(
                { timeoutMs: settings.shutdownTimeoutMs },
                'shutdown timed out (SHUTDOWN_TIMEOUT_MS): requests still running were cut; the database is closed',
              );
            process.exit(cut ? 1 : 0);
          })
          .catch((error) => {
            log.error({ err: error }, 'shutdown failed');
            process.exit(1);
          });
      };
      process.on('SIGTERM', () => shutdown('SIGTERM'));
      process.on('SIGINT', () => shutdown('SIGINT'));
      // Announced once the signals are handled: a supervisor (or a test) that stops the service as soon as it
      // reads this line must not find Node's default action, which kills the process without shutting down.
      log.info({ url: server.url }, 'chat-service listening');
    });
}
