import { Type, type Static } from '@sinclair/typebox';

/** The closed list of error codes this API answers with. */
export const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
  'request_timeout',
  'internal_error',
  'service_unavailable',
  'invalid_arguments',
  'invalid_parameters',
  'agent_not_found',
  'contact_not_found',
  'group_not_found',
  'tag_not_found',
  'no_contact_message',
  'invalid_attachment_data',
  'idempotency_key_in_use',
  'idempotency_key_reused',
  'upload_quota_exceeded',
  'invalid_identity',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export type ErrorLocation = 'body' | 'query' | 'path' | 'header';

export const ErrorItem = Type.Object(
  {
    path: Type.String({ description: 'Where the problem is, from the root: `messages[0].sub_type`' }),
    code: Type.String({ description: 'The rule that failed: `enum`, `required`, `type`, `unique`, ...' }),
    message: Type.String({ description: 'The problem as a sentence naming the path' }),
    location: Type.Union([Type.Literal('body'), Type.Literal('query'), Type.Literal('path'), Type.Literal('header')], {
      description: 'Which part of the request: `body`, `query`, `path` or `header` (`Idempotency-Key`)',
    }),
  },
  { additionalProperties: false },
);
export type ErrorItem = Static<typeof ErrorItem>;

export const ErrorPayload = Type.Object(
  {
    code: Type.Union(
      ERROR_CODES.map((code) => Type.Literal(code)),
      { description: 'Machine-readable error code' },
    ),
    message: Type.String({ description: 'Human-readable explanation' }),
    errors: Type.Optional(Type.Array(ErrorItem, { description: 'One item per problem, for validation errors' })),
    request_id: Type.Optional(Type.String({ description: 'Present on internal errors, to find the log lines' })),
  },
  { $id: 'error_payload', title: 'error_payload' },
);
export type ErrorPayload = Static<typeof ErrorPayload>;

/** The one error type of the service; mapped to error_payload in src/http/error-handler.ts. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly errors?: ErrorItem[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (resource: string) => new ApiError(404, 'not_found', `${resource} not found`);

/** A 422 invalid_arguments for one problem found by a rule rather than by the schema. */
export function invalidArgument(path: string, code: string, message: string, location: ErrorLocation = 'body'): ApiError {
  return new ApiError(422, 'invalid_arguments', `Invalid arguments: ${path} ${message}`, [
    { path, code, message: `${path} ${message}`, location },
  ]);
}
