import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.ts';

// Routes of this feature: filled in by issue 3.
export const conversationRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (_app, { deps: _deps }) => {};
