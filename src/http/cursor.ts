import { createHash } from 'node:crypto';
import { invalidArgument, type ErrorLocation } from './errors.ts';

/**
 * Opaque page cursors bound to one query of one account (docs/behaviour.md §5 "Search"): the cursor carries the
 * position after the previous page's last item and a digest of the account and the query that produced it, so a
 * cursor replayed with another query or by another account is refused (422 invalid_arguments, code `cursor`)
 * instead of silently paging something else. Not a secret: the account filter always comes from the token.
 */

/** A digest of the account and the query (any JSON value; object keys in any order give the same digest). */
export function queryBinding(accountId: string, query: unknown): string {
  return createHash('sha256')
    .update(`${accountId}\n${canonicalJson(query)}`)
    .digest('base64url')
    .slice(0, 16);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The cursor of a position (an array of strings and numbers) within the query `binding` names. */
export function encodeCursor(binding: string, position: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify([binding, ...position])).toString('base64url');
}

interface CursorKinds {
  string: string;
  number: number;
}

/** The position `kinds` describe: a string or a number for each. */
type CursorPosition<K extends readonly (keyof CursorKinds)[]> = { -readonly [I in keyof K]: CursorKinds[K[I]] };

/**
 * The position a cursor holds, checked against the query it must belong to and the shape of its position
 * (`kinds`: the type of each element). Anything else is a 422 naming `path`.
 */
export function decodeCursor<const K extends readonly (keyof CursorKinds)[]>(
  cursor: string,
  binding: string,
  kinds: K,
  path: string,
  location: ErrorLocation,
): CursorPosition<K> {
  let decoded: unknown[] | undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    decoded = Array.isArray(parsed) ? parsed : undefined;
  } catch {
    decoded = undefined;
  }
  const valid =
    decoded !== undefined &&
    decoded.length === kinds.length + 1 &&
    typeof decoded[0] === 'string' &&
    kinds.every((kind, i) => typeof decoded[i + 1] === kind && (kind === 'string' || Number.isFinite(decoded[i + 1])));
  if (!valid || decoded === undefined) throw invalidArgument(path, 'cursor', 'must be the `after` of a previous page', location);
  if (decoded[0] !== binding)
    throw invalidArgument(path, 'cursor', 'is a cursor of another query: repeat the query it came from', location);
  return decoded.slice(1) as CursorPosition<K>;
}
