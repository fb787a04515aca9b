import { readFileSync } from 'node:fs';

/**
 * The API version (SPEC: 2.6.0), kept in one place: package.json's `version`,
 * which sits one level above both src/ and the compiled dist/. The OpenAPI
 * document and the CLI show it.
 */
export const API_VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
