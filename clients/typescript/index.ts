/**
 * A typed client for the Chat Service API: openapi-fetch over the types generated
 * from the OpenAPI document (schema.d.ts, `npm run client:generate`). Every path,
 * parameter, body and answer is checked by the TypeScript compiler:
 *
 *   const chat = createChatClient('https://chat.example.com', process.env.CHAT_TOKEN);
 *   const { data, error } = await chat.GET('/v2/conversations/{id}', { params: { path: { id } } });
 *
 * `data` is the 200 answer; `error` the error_payload of a 4xx or 5xx.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema.d.ts';

export type { components, operations, paths };

/** The named schemas of the API (`Schemas['conversation']`, `Schemas['message']`, ...). */
export type Schemas = components['schemas'];

export type ChatClient = Client<paths>;

/** A client of the server at `baseUrl` (`https://chat.example.com`), sending `token` as the bearer token. */
export function createChatClient(baseUrl: string, token: string): ChatClient {
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
}
