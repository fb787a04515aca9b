/**
 * The statistics dashboard: static files under /dashboard (the page, its scripts and
 * styles, and uPlot from node_modules), read once at start-up and served from memory
 * with an ETag. The page itself is public; its data calls carry the user's token.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../http/errors.ts';

const PUBLIC_DIR = fileURLToPath(new URL('./public/', import.meta.url));

/** The chart library, served from the installed package (no CDN), under the names the page imports. */
const VENDOR_FILES: Record<string, string> = {
  'uplot.js': 'uplot/dist/uPlot.esm.js',
  'uplot.css': 'uplot/dist/uPlot.min.css',
};

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * Everything the page loads comes from this origin (the dashboard works without
 * internet access, and a token typed into it can only be sent back here).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

function staticFile(file: string): StaticFile {
  const body = readFileSync(file);
  const type = CONTENT_TYPES[path.extname(file)];
  if (!type) throw new Error(`dashboard: no content type for ${file}`);
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** The dashboard's files by the name the page asks for. */
function loadFiles(): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const name of readdirSync(PUBLIC_DIR)) files.set(name, staticFile(path.join(PUBLIC_DIR, name)));
  const resolve = createRequire(import.meta.url).resolve;
  for (const [name, module] of Object.entries(VENDOR_FILES)) files.set(name, staticFile(resolve(module)));
  return files;
}

/** Whether an If-None-Match header names this ETag (weak or strong, or `*`). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

export const dashboardRoutes: FastifyPluginAsync = async (app) => {
  const files = loadFiles();

  const send = (file: StaticFile, request: FastifyRequest, reply: FastifyReply) => {
    // Revalidated on every load (a 304 when unchanged), so an upgraded service never serves a stale mix of files.
    reply.header('Cache-Control', 'no-cache').header('ETag', file.etag).header('X-Content-Type-Options', 'nosniff');
    if (file.type.startsWith('text/html')) {
      reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY).header('Referrer-Policy', 'no-referrer');
    }
    if (matches(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
    return reply.type(file.type).send(file.body);
  };

  const options = { schema: { hide: true } };
  app.get('/dashboard', options, (request, reply) => send(files.get('index.html') as StaticFile, request, reply));
  app.get<{ Params: { file: string } }>('/dashboard/:file', options, (request, reply) => {
    const file = files.get(request.params.file);
    if (!file) throw notFound(`Dashboard file ${request.params.file}`);
    return send(file, request, reply);
  });
};
