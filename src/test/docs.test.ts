/**
 * The documentation stands alone and stays consistent with the code: the README
 * stays short, links between the documents resolve, nothing points outside the
 * repository, every `docs/behaviour.md §N` a comment cites exists, and every
 * environment variable src/config.ts reads is in the README's configuration table.
 * (The examples themselves are walked against a live server by scripts/walk-docs.sh.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const documents = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(relative) : [relative];
  });
}

/** Markdown outside fenced code blocks (a `#` in a shell comment is no heading, a `](` in JSON no link). */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's anchor for a heading. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replaceAll(' ', '-');

describe('documentation', () => {
  it('keeps the README a newcomer can scan (at most 15 KB)', () => {
    assert.ok(statSync(path.join(root, 'README.md')).size <= 15 * 1024);
  });

  it('links only to files and headings that exist', () => {
    const headings = new Map(
      documents.map((file) => [file, new Set([...prose(read(file)).matchAll(/^#+ (.*)$/gm)].map((m) => anchor(m[1]!)))]),
    );
    const broken: string[] = [];
    for (const file of documents) {
      for (const [, target] of prose(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
        assert.ok(target);
        if (/^[a-z]+:/.test(target)) continue;
        const [linked, fragment] = target.split('#');
        const resolved = linked ? path.posix.normalize(path.posix.join(path.posix.dirname(file), linked)) : file;
        if (!existsSync(path.join(root, resolved))) broken.push(`${file}: ${target} (no such file)`);
        else if (fragment && headings.has(resolved) && !headings.get(resolved)!.has(fragment))
          broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('points to nothing outside the repository', () => {
    const files = [...documents, ...['src', 'bench', 'scripts'].flatMap(filesUnder)].filter((file) => /\.(ts|mjs|js|sql|md)$/.test(file));
    const outside = files.filter((file) => file !== 'src/test/docs.test.ts' && /\.\.\/shared|DECISIONS|SPEC\.md/.test(read(file)));
    assert.deepEqual(outside, []);
  });

  it('has every section of docs/behaviour.md that the code cites', () => {
    const sections = new Set([...read('docs/behaviour.md').matchAll(/^## (\d+)\. /gm)].map((m) => m[1]));
    const cited = new Set<string>();
    for (const file of ['src', 'bench', 'docs'].flatMap(filesUnder)) {
      for (const [, list] of read(file).matchAll(/docs\/behaviour\.md (§\d+(?:(?:, | and )§\d+)*)/g)) {
        for (const [, number] of list!.matchAll(/§(\d+)/g)) cited.add(number!);
      }
    }
    assert.ok(cited.size > 0);
    assert.deepEqual(
      [...cited].filter((number) => !sections.has(number)),
      [],
    );
  });

  it('documents every environment variable the configuration reads', () => {
    const variables = new Set([...read('src/config.ts').matchAll(/(?:env\.|env, ')([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]));
    const table = new Set([...read('README.md').matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]));
    assert.ok(variables.has('PORT') && variables.has('DATABASE_URL'));
    assert.deepEqual(
      [...variables].filter((name) => !table.has(name)),
      [],
    );
  });
});
