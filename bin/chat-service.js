#!/usr/bin/env node
// The CLI runs the compiled JavaScript in dist/ (`npm run build`; `npm install` runs it).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('chat-service: dist/ is missing; run `npm run build` (npm install runs it) first.');
  process.exit(1);
}
const { main } = await import(cli.href);
await main(process.argv);
