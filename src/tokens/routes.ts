import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/family.ts';
import { route } from '../http/route.ts';
import { IdParams, OkResponse } from '../http/schemas.ts';
import type { Deps } from '../deps.ts';
import { CreatedToken, CreateTokenBody, TokenList } from './schema.ts';
import * as tokens from './service.ts';

const tags = ['Management'];

export const tokenRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/tokens',
    route({
      operationId: 'createToken',
      summary: 'Create an API token',
      description: 'The token is in this response only. A token can grant only scopes it holds itself (else 403).',
      tags,
      scope: 'account:manage',
      body: CreateTokenBody,
      response: CreatedToken,
    }),
    async (request) => tokens.createTokenFor({ ...deps, verifier: app.tokenVerifier }, callerOf(request), request.body),
  );

  app.get(
    '/tokens',
    route({
      operationId: 'listTokens',
      description: "The account's API tokens, with their names and scopes; never their secrets, shown only when created.",
      summary: 'List API tokens',
      tags,
      scope: 'account:manage',
      response: TokenList,
    }),
    async (request) => ({ tokens: await tokens.listTokens(deps.db, callerOf(request).accountId) }),
  );

  app.delete(
    '/tokens/:id',
    route({
      operationId: 'revokeToken',
      summary: 'Revoke an API token',
      description: 'Takes effect at once.',
      tags,
      scope: 'account:manage',
      params: IdParams,
      response: OkResponse,
      errors: [404],
    }),
    async (request) => {
      await tokens.revokeToken({ db: deps.db, verifier: app.tokenVerifier }, callerOf(request).accountId, request.params.id, deps.now());
      return { ok: true as const };
    },
  );
};
