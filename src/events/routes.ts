import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps.ts';

// Routes of this feature: filled in by issue 6.
export const eventRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (_app, { deps: _deps }) => {};
