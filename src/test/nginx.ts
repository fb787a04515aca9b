/**
 * nginx from Debian's package (`/usr/sbin/nginx`, or NGINX_PATH) in front of local instances, with the
 * repository's own configuration: the file compose.yaml mounts as the nginx container's `conf.d/default.conf`
 * (deploy/nginx.conf), included inside `http {}` as the nginx image does. Only its addresses are rewritten:
 * each `server <name>:<port>;` of the upstream block becomes the loopback address the test gives for that
 * name, and `listen <port>;` the loopback port nginx listens on here. Everything else, every timeout, buffer
 * and retry setting, is the deployed file's. nginx runs in the foreground (`daemon off`) from a temporary
 * prefix of its own (pid, logs, temp paths), as the `postgres` user when started as root; `stop()` ends it
 * and removes the directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { postgresUser } from './pgbouncer.ts';
import { stopOnce, waitUntilReady } from './server-process.ts';

export const NGINX_PATH = process.env.NGINX_PATH || '/usr/sbin/nginx';

export interface NginxOptions {
  /** The deployed configuration file (a server block, as compose mounts it in conf.d). */
  configFile: string;
  /** The loopback port nginx listens on, for the file's `listen` line. */
  port: number;
  /** Upstream server names of the file (`chat-1`) and the loopback address each stands for here (`127.0.0.1:8101`). */
  upstreams: Record<string, string>;
}

export interface Nginx {
  url: string;
  /** The access log so far: one line per request, `$status $request_method $uri $upstream_addr $upstream_status`. */
  accessLog(): string;
  errorLog(): string;
  stop(): Promise<void>;
}

/** The deployed file with its addresses rewritten for loopback; throws when a name or the listen line is not there. */
export function localNginxConfig(text: string, port: number, upstreams: Record<string, string>): string {
  let listens = 0;
  let out = text.replace(/^(\s*)listen \d+;/gm, (_, indent: string) => {
    listens++;
    return `${indent}listen 127.0.0.1:${port};`;
  });
  if (listens !== 1) throw new Error(`expected one "listen <port>;" line in the nginx configuration, found ${listens}`);
  const names = new Set<string>();
  out = out.replace(/^(\s*)server ([\w.-]+):(\d+)([^;]*);/gm, (_, indent: string, name: string, _port: string, rest: string) => {
    const address = upstreams[name];
    if (!address) throw new Error(`the nginx configuration names upstream "${name}", which this topology does not run`);
    names.add(name);
    return `${indent}server ${address}${rest};`;
  });
  const missing = Object.keys(upstreams).filter((name) => !names.has(name));
  if (missing.length > 0) throw new Error(`the nginx configuration has no upstream server ${missing.join(', ')}`);
  return out;
}

export async function startNginx(options: NginxOptions): Promise<Nginx> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nginx-'));
  const file = (name: string) => path.join(dir, name);
  const owner = postgresUser();
  for (const temp of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(file(temp));
  writeFileSync(file('default.conf'), localNginxConfig(readFileSync(options.configFile, 'utf8'), options.port, options.upstreams));
  writeFileSync(
    file('nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${file('nginx.pid')};`,
      `error_log ${file('error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      `  client_body_temp_path ${file('client_body')};`,
      `  proxy_temp_path ${file('proxy')};`,
      `  fastcgi_temp_path ${file('fastcgi')};`,
      `  uwsgi_temp_path ${file('uwsgi')};`,
      `  scgi_temp_path ${file('scgi')};`,
      '  log_format topology "$status $request_method $uri $upstream_addr $upstream_status $request_time";',
      `  access_log ${file('access.log')} topology;`,
      // As the nginx image's own nginx.conf: the deployed file is a conf.d include.
      '  keepalive_timeout 65;',
      `  include ${file('default.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  for (const name of ['access.log', 'error.log']) writeFileSync(file(name), '');
  if (owner) {
    for (const name of ['', 'client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi', 'access.log', 'error.log', 'nginx.conf', 'default.conf']) {
      chownSync(file(name), owner.uid, owner.gid);
    }
  }
  const child: ChildProcess = spawn(NGINX_PATH, ['-p', `${dir}/`, '-e', file('error.log'), '-c', file('nginx.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(owner ? { uid: owner.uid, gid: owner.gid } : {}),
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const read = (name: string) => readFileSync(file(name), 'utf8');
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  await waitUntilReady(child, {
    name: 'nginx',
    timeoutMs: 10_000,
    pollMs: 50,
    notReady: async () => {
      const listening = await new Promise<boolean>((resolve) => {
        const socket = net.connect(options.port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      }).catch(() => false);
      return listening ? undefined : `nginx did not listen on port ${options.port}:`;
    },
    output: () => `${read('error.log')}${stderr}`,
    giveUp: () => {
      child.kill('SIGKILL');
      cleanup();
    },
  });
  return {
    url: `http://127.0.0.1:${options.port}`,
    accessLog: () => read('access.log'),
    errorLog: () => `${read('error.log')}${stderr}`,
    // SIGTERM: fast shutdown (SIGQUIT would wait for the open event streams).
    stop: stopOnce(child, exited, cleanup),
  };
}
