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
      const shutdown = (signal: string) => {
        log.info({ signal }, 'shutting down');
        // Whatever still runs (a slow query, a stalled upload) cannot hold the process past the deadline:
        // orchestrators kill it a little later anyway (docker stop: 10 s), without this log line.
        setTimeout(() => {
          log.error({ timeoutMs: settings.shutdownTimeoutMs }, 'shutdown timed out (SHUTDOWN_TIMEOUT_MS): exiting with work still running');
          process.exit(1);
        }, settings.shutdownTimeoutMs);
        server
          .stop()
          .then(() => process.exit(0))
          .catch((error) => {
            log.error({ err: error }, 'shutdown failed');
            process.exit(1);
          });
      };
      process.once('SIGTERM', () => shutdown('SIGTERM'));
      process.once('SIGINT', () => shutdown('SIGINT'));
      // Announced once the signals are handled: a supervisor (or a test) that stops the service as soon as it
      // reads this line must not find Node's default action, which kills the process without shutting down.
      log.info({ url: server.url }, 'chat-service listening');
    });
}
