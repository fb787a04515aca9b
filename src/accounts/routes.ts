import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/family.ts';
import { route } from '../http/route.ts';
import type { Deps } from '../deps.ts';
import { Account, RotatedApiKey, RotatedIdentitySecret, RotatedWidgetKey, UpdateAccountBody } from './schema.ts';
import * as accounts from './service.ts';

const tags = ['Management'];

export const accountRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/account',
    route({
      operationId: 'getAccount',
      description: "The account's name and time zone (the zone of the legacy export's days).",
      summary: 'Get the account settings',
      tags,
      scope: 'account:manage',
      response: Account,
    }),
    async (request) => accounts.getAccount(deps.db, callerOf(request).accountId),
  );

  app.patch(
    '/account',
    route({
      operationId: 'updateAccount',
      description:
        'Changes the name, the time zone (an IANA name; another value is 422 code `format`), the origins allowed to run the ' +
        'chat widget and whether it requires a signed identity; absent fields stay as they are.',
      summary: 'Update the account settings',
      tags,
      scope: 'account:manage',
      body: UpdateAccountBody,
      response: Account,
    }),
    async (request) => accounts.updateAccount(deps, callerOf(request).accountId, request.body),
  );

  app.post(
    '/account/api-key/rotate',
    route({
      operationId: 'rotateApiKey',
      summary: 'Rotate the legacy apiKey',
      description:
        'Replaces the apiKey of the legacy `/stats` export with a new one, in this response only; the old key is refused at once. ' +
        'Other accounts and bearer tokens are unaffected.',
      tags,
      scope: 'account:manage',
      response: RotatedApiKey,
    }),
    async (request) => accounts.rotateApiKey(deps, callerOf(request).accountId),
  );
  app.post(
    '/account/widget-key/rotate',
    route({
      operationId: 'rotateWidgetKey',
      summary: 'Rotate the widget key',
      description:
        'Replaces the public key of the chat widget: the old key starts no visitor session from now on, and every visitor ' +
        'token of the account is revoked (visitors start new sessions with the new key).',
      tags,
      scope: 'account:manage',
      response: RotatedWidgetKey,
    }),
    async (request) => accounts.rotateWidgetKey(deps, callerOf(request).accountId),
  );
  app.post(
    '/account/widget-identity-secret/rotate',
    route({
      operationId: 'rotateWidgetIdentitySecret',
      summary: 'Rotate the identity secret',
      description:
        'A new secret for signing visitor identities (HMAC-SHA256, docs/widget.md), in this response only; ' +
        'identities signed with the old one are refused from now on.',
      tags,
      scope: 'account:manage',
      response: RotatedIdentitySecret,
    }),
    async (request) => accounts.rotateIdentitySecret(deps, callerOf(request).accountId),
  );
};
