/** Liveness and readiness probes: cheap, never queued behind searches. */
import type { FastifyPluginAsync } from 'fastify';
import { Type } from '../../vendor/typebox.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Readiness } from '../readiness.js';
import type { SearchRunner } from '../types.js';

const Health = Type.Object(
  { status: Type.Literal('ok', { description: 'The process is alive and its event loop answers.' }) },
  { additionalProperties: false },
);

const Ready = Type.Object(
  {
    ready: Type.Boolean({ description: 'False while starting and once shutdown began.' }),
    workers: Type.Integer({ minimum: 0, description: 'Search threads.' }),
    running: Type.Integer({ minimum: 0, description: 'Searches running now.' }),
    queued: Type.Integer({ minimum: 0, description: 'Searches waiting for a thread.' }),
  },
  { additionalProperties: false },
);

export const healthRoutes: FastifyPluginAsync<{ readiness: Readiness; pool: SearchRunner }> = async (fastify, opts) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/health',
    { schema: { tags: ['operations'], summary: 'Liveness', response: { 200: Health } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/ready',
    {
      schema: {
        tags: ['operations'],
        summary: 'Readiness: route traffic here only when ready is true (503 otherwise).',
        response: { 200: Ready, 503: Ready },
      },
    },
    async (_request, reply) => {
      const stats = opts.pool.stats();
      const body = { ready: opts.readiness.ready, workers: stats.threads, running: stats.running, queued: stats.queued };
      return reply.code(opts.readiness.ready ? 200 : 503).send(body);
    },
  );
};
