import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../auth/family.ts';
import { route } from '../http/route.ts';
import { IdParams, OkResponse } from '../http/schemas.ts';
import { eraseContact } from './erasure.ts';
import { exportContact } from './export.ts';
import type { Deps } from '../deps.ts';
import { Readable } from 'node:stream';
import { Contact, ContactExport, ContactPage, CreateContactBody, FindContactQuery, ListContactsQuery } from './schema.ts';
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
    '/contacts',
    route({
      operationId: 'listContacts',
      summary: 'List contacts',
      description:
        'Newest first, in pages of `size` with an opaque `after` cursor bound to `q` (another `q` or account: 422 ' +
        '`invalid_arguments`, path `after`). `q`: a prefix of a word of the name or of the e-mail, case and diacritics ignored.',
      tags,
      scope: 'contacts:read',
      querystring: ListContactsQuery,
      response: ContactPage,
    }),
    async (request) => contacts.listContacts(deps, callerOf(request).accountId, request.query),
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

  app.delete(
    '/contacts/:id',
    route({
      operationId: 'eraseContact',
      summary: 'Erase a contact and everything that is theirs',
      description:
        'GDPR article 17. Removes the contact, its conversations with their messages, paths, ratings, variables and tags, ' +
        "the uploads attached in them (unless another contact's conversation attaches one too), their events and pending " +
        'webhook deliveries, and records one `contact.deleted` event carrying only the contact id. The contact disappears ' +
        'at once; its data goes in batches. A failure part-way leaves the contact hidden and marked: calling again finishes ' +
        'the erasure. Scope `account:manage`: it cannot be undone. Webhooks already delivered cannot be recalled.',
      tags,
      scope: 'account:manage',
      params: IdParams,
      response: OkResponse,
      errors: [404],
    }),
    async (request) => {
      await eraseContact(deps, callerOf(request).accountId, request.params.id);
      return { ok: true as const };
    },
  );

  // The export reads a whole history: the heavy lane, like statistics (each batch yields to small requests).
  const heavyDeps: Deps = { ...deps, db: deps.db.heavy };
  app.get(
    '/contacts/:id/export',
    route({
      operationId: 'exportContact',
      summary: 'Export everything stored about a contact',
      description:
        'GDPR articles 15 and 20: one JSON document with the contact and every conversation of it, each with all its ' +
        'messages, paths, rating, variables, tags and the metadata and download links of its uploads. Streamed a batch ' +
        'of conversations at a time, so a long history neither times out nor is held in memory; a failure once it has ' +
        'started ends the response early (the JSON is then incomplete).',
      tags,
      scope: 'contacts:read',
      params: IdParams,
      response: ContactExport,
      errors: [404],
    }),
    async (request, reply) => {
      const chunks = await exportContact(heavyDeps, callerOf(request).accountId, request.params.id);
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="contact-${request.params.id.replace(/[^\w-]/g, '_')}.json"`)
        .send(Readable.from(chunks) as never); // a stream of the document the schema describes
    },
  );
};
