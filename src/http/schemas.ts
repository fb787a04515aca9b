import { Type, type TSchema, type Static, type TUnsafe } from '@sinclair/typebox';

/**
 * `T or null` as a single JSON-Schema `type` array rather than anyOf, so a wrong
 * value yields one precise error instead of one per branch.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const type = (schema as { type?: string | string[] }).type;
  if (typeof type !== 'string') throw new Error('Nullable() needs a schema with a single type');
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
}

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO-8601 UTC with milliseconds' });

export const IdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: 'Id of the resource, as returned when it was created' }) },
  { additionalProperties: false },
);

export const OkResponse = Type.Object({ ok: Type.Literal(true, { description: 'Always true: the operation succeeded' }) }, { title: 'ok_response' });

/** ISO-8601 UTC with milliseconds, as every response carries timestamps (docs/behaviour.md §0). */
export function iso(value: Date | null | undefined): string | null {
  return value ? value.toISOString() : null;
}

/**
 * A string limited to `values`, as one `type: string` + `enum` schema (a failed
 * value is one `enum` error, not one per union branch), typed as the literal union.
 */
export function StringEnum<T extends string>(values: readonly T[], options: { description?: string; default?: T } = {}): TUnsafe<T> {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });
}

/**
 * Schema keyword with the sentence to show when a string fails its `pattern`
 * (a regular expression means nothing to most callers): `{ pattern, [PATTERN_MESSAGE]: 'must be ...' }`.
 */
export const PATTERN_MESSAGE = 'x-pattern-message';
