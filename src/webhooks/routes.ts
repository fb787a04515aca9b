import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/family.ts';
import { route } from '../http/route.ts';
import { IdParams, OkResponse } from '../http/schemas.ts';
import type { Deps } from '../deps.ts';
import {
  CreateWebhookBody,
  DocumentedCreateWebhookBody,
  CreatedWebhook,
  DeliveryAttemptList,
  RotateWebhookSecretBody,
  RotatedWebhookSecret,
  WebhookList,
} from './schema.ts';
import * as webhooks from './service.ts';

const tags = ['Webhooks'];

export const webhookRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/webhooks',
    route({
      operationId: 'createWebhook',
      summary: 'Create a webhook',
      description:
        'Every event of the account (or of the listed types) committed from now on is POSTed to `url`, retried for 24 hours, ' +
        'in order per conversation, and signed to the Standard Webhooks spec: `webhook-id` (the event id, the same on every ' +
        'retry), `webhook-timestamp` (the attempt, in Unix seconds) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of ' +
        '`id.timestamp.body`), plus the legacy `X-Chat-Service-Hmac` (hex HMAC-SHA256 of the body keyed with `secret` as text).',
      tags,
      scope: 'account:manage',
      body: CreateWebhookBody,
      documentedBody: { 'application/json': DocumentedCreateWebhookBody },
      response: CreatedWebhook,
    }),
    async (request) => webhooks.createWebhook(deps, callerOf(request).accountId, request.body),
  );

  app.get(
    '/webhooks',
    route({
      operationId: 'listWebhooks',
      description: "The account's webhooks, without their secrets (shown only when created).",
      summary: 'List webhooks',
      tags,
      scope: 'account:manage',
      response: WebhookList,
    }),
    async (request) => ({ webhooks: await webhooks.listWebhooks(deps, callerOf(request).accountId) }),
  );

  app.delete(
    '/webhooks/:id',
    route({
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook',
      description: 'Its pending deliveries are dropped.',
      tags,
      scope: 'account:manage',
      params: IdParams,
      response: OkResponse,
      errors: [404],
    }),
    async (request) => {
      await webhooks.deleteWebhook(deps, callerOf(request).accountId, request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/webhooks/:id/secret/rotate',
    route({
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate the signing secret of a webhook',
      description:
        'A new secret (the given one, or a generated `whsec_` one), shown in this answer only. For `overlap_seconds` ' +
        '(default one day) deliveries carry two `v1,` signatures in webhook-signature, with the new and the replaced ' +
        'secret, so receivers can switch at their pace; the legacy X-Chat-Service-Hmac uses the new secret at once.',
      tags,
      scope: 'account:manage',
      params: IdParams,
      body: RotateWebhookSecretBody,
      response: RotatedWebhookSecret,
      errors: [404],
    }),
    async (request) => webhooks.rotateSecret(deps, callerOf(request).accountId, request.params.id, request.body),
  );

  app.get(
    '/webhooks/:id/deliveries',
    route({
      operationId: 'listWebhookDeliveries',
      description:
        'The 100 most recent delivery attempts, newest first (kept 7 days): status code or error, duration, and when the event is tried next (null once delivered or given up).',
      summary: 'Recent delivery attempts of a webhook',
      tags,
      scope: 'account:manage',
      params: IdParams,
      response: DeliveryAttemptList,
      errors: [404],
    }),
    async (request) => ({
      deliveries: await webhooks.listDeliveryAttempts(deps, callerOf(request).accountId, request.params.id),
    }),
  );
};
