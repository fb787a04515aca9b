#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx: no build step to forget.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
await main(process.argv);
