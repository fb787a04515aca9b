// compose.yaml's topology, read by both `npm run test:topology` (scripts/test-topology.ts), which runs it without
// Docker, and `npm run container:check`, which checks compose and the test agree: the nginx file compose mounts,
// the chat-service instances' environment, PgBouncer's settings. One reader, so the test runs what compose deploys.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The lines of the block at `header` (a line of its own), up to the next line indented as much or less. */
function block(lines, header) {
  const start = lines.findIndex((line) => line === header);
  if (start < 0) return [];
  const indent = header.length - header.trimStart().length;
  const out = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (line.length - line.trimStart().length <= indent) break;
    out.push(line);
  }
  return out;
}

/** `KEY: value` lines of a block, one level deeper than its first line (nested blocks skipped). */
function mapping(lines) {
  if (lines.length === 0) return {};
  const indent = lines[0].length - lines[0].trimStart().length;
  return Object.fromEntries(
    lines
      .filter((line) => line.length - line.trimStart().length === indent)
      .map((line) => /^\s*([\w-]+):\s*(.*)$/.exec(line))
      .filter((match) => match && match[2] !== '')
      .map((match) => [match[1], match[2].replace(/^'(.*)'$/, '$1')]),
  );
}

/**
 * The topology compose.yaml describes: `chatEnvironment` (the instances' environment, from `x-chat-service`),
 * `instances` (the services merging it), `nginxConfig` (the file mounted as nginx's conf.d/default.conf,
 * relative to the repository), `nginxAddress`, and the `pgbouncer` and `replica` services' environment.
 */
export function composeTopology(text = readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8')) {
  const lines = text.split('\n');
  const service = (name) => block(lines, `  ${name}:`);
  const environment = (lines) => mapping(block(lines, lines.find((line) => /^\s*environment:$/.test(line)) ?? '\0'));
  const nginx = service('nginx');
  const mount = nginx.map((line) => /^\s*- \.\/(\S+):\/etc\/nginx\/conf\.d\/default\.conf(:ro)?$/.exec(line)?.[1]).find(Boolean);
  return {
    chatEnvironment: environment(block(lines, 'x-chat-service: &chat-service')),
    instances: [...text.matchAll(/^ {2}([\w-]+):\n {4}<<: \*chat-service/gm)].map((m) => m[1]),
    nginxConfig: mount,
    nginxAddress: /^ {6}default:\n {8}ipv4_address: (\S+)$/m.exec(nginx.join('\n'))?.[1],
    pgbouncer: environment(service('pgbouncer')),
    replica: service('replica'),
  };
}
