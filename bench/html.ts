/**
 * `npm run bench:html`: how long sanitising one message's HTML blocks the event loop.
 * Worst cases at the schema's bound (MAX_HTML_LENGTH characters): unclosed tags,
 * links without href, nested links, stray closing tags, an unclosed script. Beside
 * each: plain text of the same length (the floor), and sanitize-html with the
 * configuration the service used before (quadratic on unclosed tags; skipped past
 * BENCH_HTML_REFERENCE_MAX characters, its cost at 1 MiB is minutes). The last rows
 * show the sanitiser stays linear up to the 1 MiB body limit.
 */
import { performance } from 'node:perf_hooks';
import { MAX_HTML_LENGTH, sanitizeHtml } from '../src/content/html.ts';
import { referenceSanitizeHtml } from '../src/test/sanitize-html-reference.ts';

const REFERENCE_MAX = Number(process.env.BENCH_HTML_REFERENCE_MAX ?? MAX_HTML_LENGTH);

/** `unit` repeated to exactly `length` characters. */
const fill = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

const CASES: [string, (length: number) => string][] = [
  ['plain text (baseline)', (n) => fill('x', n)],
  ['text with links (typical)', (n) => fill('Order <a href="https://shop.example/o/1">#1</a> shipped.<br>', n)],
  ['<b> unclosed', (n) => fill('<b>', n)],
  ['<a> without href', (n) => fill('<a>', n)],
  ['<a href> nested, unclosed', (n) => fill('<a href="https://x.example/">', n)],
  ['<b> then stray </i>', (n) => fill('<b>', n / 2) + fill('</i>', n / 2)],
  ['<p><li><option> implied closes', (n) => fill('<p><li><option>', n)],
  ['unclosed <script> + text', (n) => `<script>${fill('x', n - 8)}`],
  ['href with a long run of spaces', (n) => `<a href="a${fill(' ', n - 16)}b">x</a>`],
];

/** Best of `runs` timings in milliseconds (the first warms up). */
function time(run: () => unknown, runs: number): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

const ms = (value: number | undefined) => (value === undefined ? '—' : value < 10 ? value.toFixed(2) : value.toFixed(0));

function table(length: number, withReference: boolean): void {
  console.log(`\n${length.toLocaleString('en')} characters`);
  console.log('| input | sanitizeHtml (ms) | sanitize-html before (ms) |');
  console.log('|---|---:|---:|');
  for (const [name, build] of CASES) {
    const html = build(length);
    const current = time(() => sanitizeHtml(html), 5);
    const reference = withReference && length <= REFERENCE_MAX ? time(() => referenceSanitizeHtml(html), 2) : undefined;
    console.log(`| ${name} | ${ms(current)} | ${ms(reference)} |`);
  }
}

table(MAX_HTML_LENGTH, true);
table(1024 * 1024, false);
