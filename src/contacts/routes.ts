import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/hook.ts';
import { route } from '../http/route.ts';
import { IdParams } from '../http/schemas.ts';
import type { Deps } from '../deps.ts';
import { Contact, CreateContactBody, FindContactQuery } from './schema.ts';
import * as contacts from './service.ts';

const tags = ['Contacts'];

export const contactRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/contacts',
    route({
      operationId: 'createContact',
      summary: 'Create a contact',
      description: 'Always creates a new contact. Records a `contact.created` event.',
      tags,
      scope: 'contacts:write',
      body: CreateContactBody,
      response: Contact,
    }),
    async (request) => contacts.createContact(deps, callerOf(request).accountId, request.body),
  );

  app.get(
    '/contacts/find',
    route({
      operationId: 'findContactByEmail',
      summary: 'Find a contact by e-mail',
      description: 'Case-insensitive; with several matches the most recently updated wins. No match, or no `email`: 404.',
      tags,
      scope: 'contacts:read',
      querystring: FindContactQuery,
      response: Contact,
      errors: [404],
    }),
    async (request) => contacts.findContactByEmail(deps, callerOf(request).accountId, request.query.email),
  );

  app.get(
    '/contacts/:id',
    route({
      operationId: 'getContact',
      description: "The contact record; an unknown or other account's contact is 404.",
      summary: 'Get a contact',
      tags,
      scope: 'contacts:read',
      params: IdParams,
      response: Contact,
      errors: [404],
    }),
    async (request) => contacts.getContact(deps, callerOf(request).accountId, request.params.id),
  );
};
