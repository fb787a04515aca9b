import type { Command } from 'commander';
import type { Config } from '../config.ts';

/** `chat-service demo-data`: filled in by issue 4 (demo data and benchmark). */
export function registerDemoCommands(_program: Command, _config: () => Config): void {}
