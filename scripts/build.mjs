#!/usr/bin/env node
// `npm run build`: compiles src/ to dist/ (tsconfig.build.json) and copies the
// files the compiled code reads at run time (SQL migrations, the PGlite worker).
// Everything that runs in production (`npm start`, the CLI, the container) runs dist/.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// From scratch each time: a module deleted from src/ must not linger in dist/.
rmSync('dist', { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);

/** Files that are not TypeScript but ship beside the code that reads them. */
const ASSET = /\.(sql|mjs|html|css|js|svg|png|woff2)$/;
function copyAssets(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'test') copyAssets(source, target);
    } else if (ASSET.test(entry.name)) cpSync(source, target);
  }
}
copyAssets('src', 'dist');
