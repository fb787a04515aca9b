import { Type, type TSchema, type Static, type TUnsafe } from '@sinclair/typebox';

/**
 * `T or null` as a single JSON-Schema `type` array rather than anyOf, so a wrong
 * value yields one precise error instead of one per branch. An `enum` gets `null`
 * among its values too: `enum` applies to every type, so without it `null` would fail
 * it (a strict client, or an enum generated from the document, refuses the null).
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const { type, enum: values } = schema as { type?: string | string[]; enum?: unknown[] };
  if (typeof type !== 'string') throw new Error('Nullable() needs a schema with a single type');
  if ('const' in schema) throw new Error('Nullable() of a const: use an enum of the value');
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'], ...(values ? { enum: [...values, null] } : {}) });
}

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO-8601 UTC with milliseconds' });
/** A Timestamp saying what it is: `At('When it was written')`. */
export const At = (description: string) =>
  Type.String({ format: 'date-time', description: `${description}; ISO-8601 UTC with milliseconds` });

export const IdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: 'Id of the resource, as returned when it was created' }) },
  { additionalProperties: false },
);

export const OkResponse = Type.Object(
  { ok: Type.Literal(true, { description: 'Always true: the operation succeeded' }) },
  { title: 'ok_response' },
);

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

/**
 * `schema` documented with groups of properties of which at most one may be present
 * (text/html or messages): a `oneOf` whose branches forbid the other groups' properties,
 * so a generated client rejects a mix at compile time. The first group's branch also
 * admits none of them. Documentation only: the service enforces the rule with its own message.
 */
export function exclusiveProperties<T extends TSchema>(
  schema: T,
  groups: readonly [readonly string[], ...(readonly string[])[]],
): TUnsafe<Static<T>> {
  const others = (group: readonly string[]) => groups.filter((g) => g !== group).flat();
  const branches = groups.map((group, i) => ({
    properties: Object.fromEntries(others(group).map((name) => [name, false])),
    ...(i === 0 ? {} : group.length === 1 ? { required: [...group] } : { anyOf: group.map((name) => ({ required: [name] })) }),
  }));
  return Type.Unsafe<Static<T>>({ ...schema, oneOf: branches });
}
