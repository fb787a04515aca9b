/**
 * The last pass over the OpenAPI document @fastify/swagger generates (its
 * `transformObject`), so generated clients get named types and exact optionality:
 * documentation only, the validating schemas stay as they are.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const COMPONENT_SCHEMAS = '#/components/schemas/';

/** Keywords whose values are data, not schemas: a `title` inside them names nothing. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'const', 'enum']);

/**
 * Every schema with a `title` (`conversation`, `message`, ...) becomes one entry of
 * components/schemas, referenced by `$ref` wherever it appeared, innermost first.
 * Two different schemas with one title would make one of them lie: that throws.
 */
function hoistTitledSchemas(node: unknown, components: Record<string, unknown>): unknown {
  if (Array.isArray(node)) return node.map((item) => hoistTitledSchemas(item, components));
  if (!isObject(node)) return node;
  const out = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, DATA_KEYWORDS.has(key) ? value : hoistTitledSchemas(value, components)]),
  );
  if (typeof out.title !== 'string' || !('type' in out || 'properties' in out || 'anyOf' in out || 'oneOf' in out)) return out;
  const name = out.title;
  const existing = components[name];
  if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(out)) {
    throw new Error(`OpenAPI: two different schemas are titled ${name}; give one of them another title`);
  }
  components[name] = out;
  return { $ref: `${COMPONENT_SCHEMAS}${name}` };
}

/**
 * A request body's property with a default may be left out: the validator fills the default in before it checks
 * `required` (ajv's useDefaults), so the document lists it as optional, as clients may send it.
 */
function defaultsOptional(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(defaultsOptional);
  if (!isObject(node)) return node;
  const out = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, DATA_KEYWORDS.has(key) ? value : defaultsOptional(value)]),
  );
  const properties = out.properties;
  if (Array.isArray(out.required) && isObject(properties)) {
    const required = out.required.filter((name) => !(isObject(properties[name]) && 'default' in properties[name]));
    if (required.length > 0) out.required = required;
    else delete out.required;
  }
  return out;
}

interface Parameter {
  in: string;
  required?: boolean;
  schema?: Json;
}

interface Response {
  description?: string;
  content?: Record<string, { schema?: Json }>;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses?: Record<string, Response>;
}

/** A response @fastify/swagger could not describe gets the name of what it returns. */
function describeResponse(response: Response): void {
  if (response.description !== 'Default Response') return;
  const ref = response.content?.['application/json']?.schema?.$ref;
  response.description = typeof ref === 'string' ? `The ${ref.slice(COMPONENT_SCHEMAS.length).replace(/_/g, ' ')}` : 'Success';
}

const errorContent = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `${COMPONENT_SCHEMAS}error_payload` } } },
});

/**
 * Answers any request can get before (or instead of) reaching its operation: from Node's HTTP parser
 * (408, 431: src/http/error-handler.ts clientErrorHandler), the router (414 for an over-long path
 * parameter) and the 405 of a method the path does not have. One shared response each, referenced
 * by every operation they can happen to (414: those with a path parameter).
 */
const SHARED_RESPONSES: Record<string, { status: number; response: Json; pathParameters?: true; v2?: true }> = {
  // Any /v2 (and /widget/v1, the visitor API) operation refuses a query, path or body its schema does not allow, a GET with a JSON body included;
  // operations that describe their own 422 keep it. (The legacy export answers 400 invalid_parameters instead.)
  invalid_arguments: {
    status: 422,
    response: errorContent('A query, path parameter or body the operation does not allow (`invalid_arguments`); `errors` names each'),
    v2: true,
  },
  // On PostgreSQL any /v2 request can wait on a row lock or a slow statement past DB_LOCK_TIMEOUT_MS or
  // DB_STATEMENT_TIMEOUT_MS (docs/api.md); operations that describe their own 503 keep it.
  service_unavailable: {
    status: 503,
    response: {
      ...errorContent(
        'The database is busy (`service_unavailable`): a lock or statement took longer than DB_LOCK_TIMEOUT_MS or DB_STATEMENT_TIMEOUT_MS; nothing was written, retry',
      ),
      headers: { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'string' } } },
    },
    v2: true,
  },
  method_not_allowed: {
    status: 405,
    response: {
      ...errorContent('A method this path does not have (`method_not_allowed`); Allow lists those it has'),
      headers: { Allow: { description: 'The methods of this path', schema: { type: 'string' } } },
    },
  },
  request_timeout: {
    status: 408,
    response: errorContent(
      'Headers or body not received within HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS (`request_timeout`); the connection is closed',
    ),
  },
  uri_too_long: {
    status: 414,
    response: errorContent('A path parameter over 2048 characters (`bad_request`)'),
    pathParameters: true,
  },
  headers_too_large: {
    status: 431,
    response: errorContent('The request headers (the URL included) are over the size limit (`bad_request`); the connection is closed'),
  },
};

/** The versioned APIs, which share their error answers: /v2 and the visitor API (/widget/v1). */
const isApiPath = (path: string) => path.startsWith('/v2/') || path.startsWith('/widget/v1/');

export function finishDocument(openapiObject: Json): Json {
  const components = (openapiObject.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Record<string, unknown>;
  const paths = hoistTitledSchemas(openapiObject.paths ?? {}, schemas) as Record<string, Record<string, Operation>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const operation of Object.values(item)) {
      const responses = (operation.responses ??= {});
      for (const [name, shared] of Object.entries(SHARED_RESPONSES)) {
        if (shared.pathParameters && !path.includes('{')) continue;
        if (shared.v2 && !isApiPath(path)) continue;
        (responses as Record<string, unknown>)[shared.status] ??= { $ref: `#/components/responses/${name}` };
      }
      operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
      // A query parameter with a default may be left out: fastify fills the default in.
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'query' && parameter.schema?.default !== undefined) parameter.required = false;
      }
      for (const response of Object.values(operation.responses)) describeResponse(response);
      for (const content of Object.values(operation.requestBody?.content ?? {})) content.schema = defaultsOptional(content.schema) as Json;
      // @fastify/swagger marks every body required; an operation taking none accepts an empty object, or nothing.
      if (operation.requestBody?.content?.['application/json']?.schema?.$ref === `${COMPONENT_SCHEMAS}empty_body`) {
        operation.requestBody.required = false;
      }
    }
  }
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  const responses = Object.fromEntries(Object.entries(SHARED_RESPONSES).map(([name, shared]) => [name, shared.response]));
  return { ...openapiObject, paths, components: { ...components, schemas: sorted, responses } };
}
