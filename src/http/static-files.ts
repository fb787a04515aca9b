/**
 * Static files served from memory with a strong ETag (the dashboard's pages and scripts, the widget's
 * script): read once at start-up, answered 304 when the browser's copy is current.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from './errors.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

/** Reads a file to serve: its bytes, its content type (from the extension) and an ETag from its hash. */
export function staticFile(file: string): StaticFile {
  const body = readFileSync(file);
  const type = CONTENT_TYPES[path.extname(file)];
  if (!type) throw new Error(`static files: no content type for ${file}`);
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** Whether an If-None-Match header names this ETag (weak or strong, or `*`). */
export function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/**
 * The Content-Security-Policy of a browser app served by this service: everything from this origin (it works without
 * internet access, and a token typed into it can only be sent back here), images also from `imageSources`.
 */
export function sameOriginPolicy(imageSources: readonly string[] = []): string {
  return [
    "default-src 'self'",
    ["img-src 'self'", ...imageSources].join(' '),
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Files every browser app gets beside its own (base.css), by the same names. */
const SHARED_DIR = fileURLToPath(new URL('./public/', import.meta.url));

/** A browser app of static files under one path (the dashboard, the inbox). */
export interface StaticPages {
  /** `/dashboard`: the page at the prefix itself, its files at `<prefix>/<name>`. */
  prefix: string;
  /** The directory of the files, read once (no subdirectories). */
  dir: string;
  /** More files from installed packages, by the name the page asks for: `{'uplot.js': 'uplot/dist/uPlot.esm.js'}`. */
  vendor?: Record<string, string>;
  /** The page's Content-Security-Policy. */
  contentSecurityPolicy: string;
  /** How a 404 names a missing file: `Dashboard file x.js not found`. */
  label: string;
}

/**
 * Serves `dir` (plus the shared files and `vendor`) under `prefix` from memory: `index.html` at the prefix, every
 * other file by its name; `Cache-Control: no-cache` with a strong ETag (a 304 when unchanged, so an upgraded service
 * never serves a stale mix of files), `nosniff`, and on the page its CSP and `Referrer-Policy: no-referrer`; unknown
 * names are 404 not_found.
 */
export function staticPages(options: StaticPages): FastifyPluginAsync {
  return async (app) => {
    const files = new Map<string, StaticFile>();
    for (const dir of [SHARED_DIR, options.dir]) for (const name of readdirSync(dir)) files.set(name, staticFile(path.join(dir, name)));
    const resolve = createRequire(import.meta.url).resolve;
    for (const [name, module] of Object.entries(options.vendor ?? {})) files.set(name, staticFile(resolve(module)));

    const send = (file: StaticFile, request: FastifyRequest, reply: FastifyReply) => {
      reply.header('Cache-Control', 'no-cache').header('ETag', file.etag).header('X-Content-Type-Options', 'nosniff');
      if (file.type.startsWith('text/html')) {
        reply.header('Content-Security-Policy', options.contentSecurityPolicy).header('Referrer-Policy', 'no-referrer');
      }
      if (matches(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
      return reply.type(file.type).send(file.body);
    };

    const hidden = { schema: { hide: true } };
    app.get(options.prefix, hidden, (request, reply) => send(files.get('index.html') as StaticFile, request, reply));
    app.get<{ Params: { file: string } }>(`${options.prefix}/:file`, hidden, (request, reply) => {
      const file = files.get(request.params.file);
      if (!file) throw notFound(`${options.label} file ${request.params.file}`);
      return send(file, request, reply);
    });
  };
}
