import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { Static, TSchema } from '@sinclair/typebox';
import { ApiError, type ErrorItem, type ErrorLocation } from './errors.ts';
import { PATTERN_MESSAGE } from './schemas.ts';

function makeAjv(coerceTypes: boolean | 'array') {
  // allErrors: report every problem at once. removeAdditional false: unknown
  // properties are rejected, never silently dropped (docs/behaviour.md §2).
  // verbose: errors carry their schema, so a pattern can explain itself (PATTERN_MESSAGE).
  const ajv = new Ajv.default({ allErrors: true, removeAdditional: false, useDefaults: true, coerceTypes, strict: false, verbose: true });
  addFormats.default(ajv);
  return ajv;
}

// Query strings and path parameters arrive as text and are coerced; JSON bodies are not.
const bodyAjv = makeAjv(false);
const textAjv = makeAjv('array');

/**
 * Request header schemas (Idempotency-Key, Last-Event-ID) are the document's only: the code
 * reading a header checks it, with the error it documents (a 422 naming the header, a 400).
 */
const documentedOnly = () => true;

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  httpPart === 'headers'
    ? documentedOnly
    : httpPart === 'body'
      ? (bodyAjv.compile(schema as object) as never)
      : (plainNumbers(schema as JsonSchema, textAjv.compile(schema as object)) as never);

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
}

/** Decimal digits, as query and path numbers must be written: Ajv's coercion alone reads `0x10`, `1e1`, ` 16` and `0b1` too. */
const PLAIN_NUMBER = { integer: /^-?\d+$/, number: /^-?\d+(\.\d+)?$/ };

function numberKind(schema: JsonSchema | undefined): 'integer' | 'number' | undefined {
  const types = Array.isArray(schema?.type) ? schema.type : [schema?.type];
  return types.includes('integer') ? 'integer' : types.includes('number') ? 'number' : undefined;
}

/**
 * A query or path validator that refuses, before Ajv coerces them, numbers not written in plain decimal digits
 * (docs/api.md, Conventions): `?size=0x10` is a 422 `type`, not 16. Query and path schemas are flat objects, whose
 * properties may be numbers or arrays of numbers.
 */
function plainNumbers(schema: JsonSchema, validate: ValidateFunction): ValidateFunction {
  const checked = Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const kind = numberKind(property) ?? numberKind(property.items);
    return kind ? [{ name, kind }] : [];
  });
  if (checked.length === 0) return validate;
  const wrapped = ((data: unknown) => {
    const errors: ErrorObject[] = [];
    for (const { name, kind } of checked) {
      const value = (data as Record<string, unknown> | null | undefined)?.[name];
      (Array.isArray(value) ? value : [value]).forEach((element, i) => {
        if (typeof element !== 'string' || PLAIN_NUMBER[kind].test(element)) return;
        errors.push({
          keyword: 'type',
          instancePath: Array.isArray(value) ? `/${name}/${i}` : `/${name}`,
          schemaPath: `#/properties/${name}/type`,
          params: { type: kind },
          message: `must be ${kind === 'integer' ? 'an integer' : 'a number'} written in decimal digits`,
        });
      });
    }
    if (errors.length > 0) {
      wrapped.errors = errors;
      return false;
    }
    const valid = validate(data);
    wrapped.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return wrapped;
}

const LOCATIONS: Record<string, ErrorLocation> = { body: 'body', querystring: 'query', params: 'path' };

export function locationOf(validationContext: string | undefined): ErrorLocation {
  return LOCATIONS[validationContext ?? 'body'] ?? 'body';
}

/** `/messages/0/sub_type` -> `messages[0].sub_type` */
export function toPath(instancePath: string, child?: string): string {
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) segments.push(child);
  let out = '';
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'pattern':
      return (
        ((error.parentSchema as Record<string, unknown> | undefined)?.[PATTERN_MESSAGE] as string | undefined) ??
        error.message ??
        'is invalid'
      );
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not an allowed property';
    case 'anyOf':
    case 'oneOf':
      return 'does not match any allowed shape';
    default:
      return error.message ?? 'is invalid';
  }
}

/** One error item per problem, with paths from the root of the request part. */
export function formatValidationErrors(errors: ErrorObject[], location: ErrorLocation): ErrorItem[] {
  // A failed anyOf/oneOf also reports every branch's failure; keep only the union's own error.
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const relevant = errors.filter((e) => !unions.some((u) => u !== e && e.schemaPath.startsWith(`${u.schemaPath}/`)));
  const seen = new Set<string>();
  const items: ErrorItem[] = [];
  for (const error of relevant) {
    const params = error.params as Record<string, string>;
    const child =
      error.keyword === 'required'
        ? params.missingProperty
        : error.keyword === 'additionalProperties'
          ? params.additionalProperty
          : undefined;
    const path = toPath(error.instancePath, child);
    const key = `${path}\u0000${error.keyword}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const label = path === '' ? location : path;
    items.push({ path, code: error.keyword, message: `${label} ${describe(error)}`, location });
  }
  return items;
}

/** The 422 invalid_arguments listing `items`, summarised by the first. */
export function invalidArgumentsError(items: ErrorItem[]): ApiError {
  const first = items[0]?.message ?? 'invalid request';
  return new ApiError(
    422,
    'invalid_arguments',
    `Invalid arguments: ${first}${items.length > 1 ? ` (and ${items.length - 1} more)` : ''}`,
    items,
  );
}

/** The 422 invalid_arguments for a request part that failed its schema. */
export function invalidArguments(errors: ErrorObject[], location: ErrorLocation): ApiError {
  return invalidArgumentsError(formatValidationErrors(errors, location));
}

/**
 * Checks a value against a body schema outside HTTP (the CLI), with the same
 * rules and the same 422 as the API, so both entry points accept the same input.
 */
export function validateBody<T extends TSchema>(schema: T, value: unknown): Static<T> {
  const unstorable = unstorableInputErrors(value, 'body');
  if (unstorable.length > 0) throw invalidArgumentsError(unstorable);
  const validate = bodyAjv.compile(schema);
  if (!validate(value)) throw invalidArguments(validate.errors ?? [], 'body');
  return value as Static<T>;
}

/** Objects as parsers build them (JSON, query strings: no class of their own); never streams or buffers. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** Deeper than any request needs (a conversation import is 6 levels); free-form objects are held to it too. */
export const MAX_NESTING = 32;

/** Whether `value` nests arrays or objects more than `levels` deep; walks with its own stack, stopping there. */
export function nestedDeeperThan(value: unknown, levels: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop() as (typeof pending)[number];
    const children = Array.isArray(current) ? current : isPlainObject(current) ? Object.values(current) : [];
    if (children.length === 0) continue;
    if (depth === levels) return true;
    for (const child of children) pending.push({ value: child, depth: depth + 1 });
  }
  return false;
}

const UNPAIRED_SURROGATE = /\p{Surrogate}/u;

/**
 * JSON numbers a double cannot hold as written, found in the body's text before JSON.parse rounds them
 * (docs/behaviour.md §2): an integer beyond ±(2^53 − 1) (`9007199254740993` would read as …992) and a number
 * that is not zero but underflows to 0 (`0.1e-400`). Each is replaced by a string holding this mark and the
 * number as written, which unstorableInputErrors() reports, with its path, as a 422. The mark starts with U+0000,
 * which no accepted string may hold.
 */
const INEXACT_MARK = '\u0000inexact-number:';
/** What a body needs to hold any such number: 16 digits in a row, or a three-digit exponent. */
const INEXACT_HINT = /\d{16}|[eE][+-]?\d{3}/;
const NUMBER_TOKEN = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

function inexactNumber(token: string): boolean {
  const value = Number(token);
  if (Number.isInteger(value) && !/[eE]/.test(token) && !Number.isSafeInteger(value)) return true;
  // Underflow: it reads as 0, yet a digit before any exponent is not 0.
  return value === 0 && /^[^eE]*[1-9]/.test(token);
}

/** `text` (JSON) with every number a double cannot hold exactly replaced by a marked string; usually `text` itself. */
export function markInexactNumbers(text: string): string {
  if (!INEXACT_HINT.test(text)) return text;
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, escapes included.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      i++;
      continue;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER_TOKEN.lastIndex = i;
      const token = NUMBER_TOKEN.exec(text)?.[0] ?? text.charAt(i);
      if (inexactNumber(token)) {
        out += text.slice(copied, i) + JSON.stringify(INEXACT_MARK + token);
        copied = i + token.length;
      }
      i += token.length;
      continue;
    }
    i++;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Why PostgreSQL cannot store `text` as given, or undefined. */
function unstorableText(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  // Not encodable as UTF-8: text columns would store U+FFFD instead, jsonb refuses the whole value.
  if (UNPAIRED_SURROGATE.test(text)) return 'must not contain an unpaired surrogate (\\ud800-\\udfff alone)';
  return undefined;
}

/**
 * Input that would fail deep in the handler rather than validation: PostgreSQL
 * text cannot hold U+0000 nor an unpaired surrogate (one error item per string
 * or key that has one), a JSON number beyond the double range parses as
 * ±Infinity, which JSON cannot write back (it would be stored as null), and JSON nested thousands of levels deep, while valid,
 * overflows the call stack of anything that walks it recursively (serialising it
 * for the database does).
 * Found before any handler runs; walks with its own stack for the same reason.
 */
export function unstorableInputErrors(value: unknown, location: ErrorLocation): ErrorItem[] {
  const item = (path: string, code: string, rule: string): ErrorItem => ({ path, code, message: `${path || location} ${rule}`, location });
  const errors: ErrorItem[] = [];
  let tooDeep = false;
  // `badKey`: the entry stands for an unstorable key, reported (with why) in place of walking its value.
  const pending: { value: unknown; at: string; depth: number; badKey?: string }[] = [{ value, at: '', depth: 0 }];
  while (pending.length > 0) {
    const { value: current, at, depth, badKey } = pending.pop() as (typeof pending)[number];
    if (typeof current === 'string' && current.startsWith(INEXACT_MARK)) {
      const token = current.slice(INEXACT_MARK.length);
      errors.push(
        item(
          at,
          'type',
          `must be a number a double holds as written: ${token} would read as ${Number(token)} ` +
            '(integers at most 9007199254740991 in magnitude; no number so small it reads as 0)',
        ),
      );
      continue;
    }
    if (badKey !== undefined || typeof current === 'string') {
      const rule = badKey ?? unstorableText(current as string);
      if (rule !== undefined) errors.push(item(at, 'pattern', rule));
      continue;
    }
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) errors.push(item(at, 'type', 'must be a finite number (at most 1.7976931348623157e308 in magnitude)'));
      continue;
    }
    const children = Array.isArray(current)
      ? current.map((element, i) => ({ value: element, at: `${at}[${i}]`, depth: depth + 1 }))
      : isPlainObject(current)
        ? Object.entries(current).map(([key, element]) => ({
            value: element,
            at: at === '' ? key : `${at}.${key}`,
            depth: depth + 1,
            badKey: unstorableText(key),
          }))
        : [];
    if (children.length > 0 && depth === MAX_NESTING) {
      // One item is enough to say it; the rest of such a body is not worth walking.
      if (!tooDeep) errors.push(item(at, 'maxDepth', `must not be nested deeper than ${MAX_NESTING} levels`));
      tooDeep = true;
      continue;
    }
    // Reversed onto the stack, so problems are reported in document order (a loop: a spread of a wide array overflows too).
    for (const child of children.reverse()) pending.push(child);
  }
  return errors;
}
