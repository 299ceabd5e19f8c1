/**
 * The fastify application factory. Everything the service does over HTTP is registered here, from
 * small plugins that tests exercise with `app.inject`.
 */
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '../vendor/typebox.js';
import type { Config } from '../config.js';
import { ApiError, ERROR_CATALOGUE, type ErrorCode, errorBody } from './errors.js';
import { ConnectionTracker, armLingeringClose, clientErrorHandler, connectionsCheckMs } from './connection.js';
import { healthRoutes } from './routes/health.js';
import { ServiceMetrics, metricsRoutes } from './metrics.js';
import { ResultCache } from './result-cache.js';
import type { RedisLink } from './redis.js';
import { RedisResults } from './shared-results.js';
import { sharedRateLimitStore } from './rate-limit-store.js';
import { gameRoutes } from './routes/games.js';
import { ResponseReserve } from './response-reserve.js';
import { playgroundRoutes } from './playground.js';
import { registerAccessLog } from './access-log.js';
import { Readiness } from './readiness.js';
import type { SearchRunner } from './types.js';

/** Kept here too for importers of the app module. */
export { errorBody };

export interface AppOptions {
  readonly config: Config;
  readonly pool: SearchRunner;
  readonly logger?: FastifyServerOptions['logger'];
  readonly readiness?: Readiness;
  /** Metrics registry; a fresh one per app when absent. */
  readonly metrics?: ServiceMetrics;
  /** The response reserve's measurements; a fresh one per app when absent. */
  readonly reserve?: ResponseReserve;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's connections and their responses in flight (a shutdown closes the quiet ones). */
    connections: ConnectionTracker;
  }
  interface FastifyRequest {
    /** Arrival time (Date.now() scale): time budgets count from here. */
    arrivedAt: number;
  }
}

export const API_VERSION = '1.0.0';

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const readiness = options.readiness ?? new Readiness('ready');
  const app = Fastify({
    logger: options.logger ?? false,
    // One line per request, written by access-log.ts (fastify's own logging writes two).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    requestIdHeader: 'x-request-id',
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    // Slow clients: 408 once the whole request has not arrived within REQUEST_TIMEOUT_MS (see connection.ts).
    requestTimeout: config.requestTimeoutMs,
    http: { connectionsCheckingInterval: connectionsCheckMs(config.requestTimeoutMs), headersTimeout: config.requestTimeoutMs },
    clientErrorHandler,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
    // Rate limits count per client address: behind a load balancer, its X-Forwarded-For names the client.
    trustProxy: typeof config.trustProxy === 'boolean' ? config.trustProxy : [...config.trustProxy],
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(TypeBoxValidatorCompiler);
  // JSON only: anything else is 415, not a string body that fails validation later.
  app.removeContentTypeParser(['text/plain']);
  app.decorateRequest('arrivedAt', 0);
  const connections = new ConnectionTracker();
  connections.attach(app.server);
  app.decorate('connections', connections);
  app.addHook('onRequest', async (request, reply) => {
    request.arrivedAt = Date.now();
    connections.responseStarted(reply.raw);
  });
  // Once shutting down, close each connection after its response, so a keep-alive client does not
  // hold a draining replica open.
  app.addHook('onSend', async (request, reply) => {
    if (readiness.phase === 'stopping') reply.header('connection', 'close');
    // Answered before the body was read to its end (413, 415, ...): close, but linger (connection.ts).
    if (!request.raw.complete) {
      reply.header('connection', 'close');
      armLingeringClose(request.raw, { maxBytes: config.bodyDrainMaxBytes, timeoutMs: config.bodyDrainTimeoutMs });
    }
  });
  registerAccessLog(app);
  const metrics = options.metrics ?? new ServiceMetrics(options.pool);
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins.includes('*') ? true : [...config.corsOrigins],
      methods: ['GET', 'POST'],
      maxAge: 600,
    });
  }
  // Shared by the replicas when configured; every use of it falls back to this replica's own state.
  // ioredis (46 modules) loads only for a replica that shares Redis.
  let redis: RedisLink | undefined;
  if (config.redisUrl !== undefined) {
    const { RedisLink } = await import('./redis.js');
    redis = new RedisLink({ url: config.redisUrl, timeoutMs: config.redisTimeoutMs, metrics, log: app.log });
  }
  if (redis !== undefined) app.addHook('onClose', async () => redis.close());
  if (config.rateLimitPerMinute > 0) {
    await app.register(rateLimit, {
      max: config.rateLimitPerMinute,
      timeWindow: 60_000,
      // Probes and the metrics scrape must never be throttled.
      allowList: (request) => request.url === '/health' || request.url === '/ready' || request.url === '/metrics',
      ...(redis === undefined ? {} : { store: sharedRateLimitStore(redis) }),
    });
  }

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const apiError = toApiError(error);
    // 503s are expected under load and counted by metrics; only real failures are logged as errors.
    if (apiError.statusCode >= 500 && apiError.statusCode !== 503) request.log.error({ err: error }, 'request failed');
    if (apiError.retryAfter !== undefined) void reply.header('retry-after', String(apiError.retryAfter));
    return reply.code(apiError.statusCode).send(errorBody(apiError, request.id));
  });
  app.setNotFoundHandler((request, reply) => {
    const error = new ApiError('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`);
    return reply.code(404).send(errorBody(error, request.id));
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Kibitz',
        version: API_VERSION,
        description:
          'Move suggestions for Tablut (Ashton rules), Hadron, (M,N,K)-games and Othello. POST a position; get the best move, ' +
          'its evaluation, the principal variation and search statistics, within the time budget you set.\n\n' +
          'Errors always have the body `ErrorBody`; its `code` is one of: ' +
          Object.entries(ERROR_CATALOGUE)
            .map(([code, e]) => `\`${code}\` (${e.status}): ${e.description}`)
            .join('; '),
      },
      tags: [
        { name: 'games', description: 'Rules, positions and moves of each game.' },
        { name: 'search', description: 'Best-move search.' },
        { name: 'analysis', description: 'Several lines with win probabilities (JSON or Server-Sent Events) and whole-game review.' },
        { name: 'operations', description: 'Health, readiness and documentation.' },
      ],
    },
  });
  if (config.exposeDocs) {
    await app.register(swaggerUi, { routePrefix: '/docs' });
  }
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes, { readiness, pool: options.pool });
  await app.register(metricsRoutes, { metrics });
  const cache = new ResultCache(config.cacheEntries, redis === undefined ? undefined : new RedisResults(redis, config.redisTtlS * 1000));
  await app.register(gameRoutes, { config, pool: options.pool, readiness, metrics, cache, reserve: options.reserve ?? new ResponseReserve(),
    streams: { open: 0 },
  });
  if (config.exposePlayground) await app.register(playgroundRoutes);
  return app;
}


interface ValidationIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/** Maps anything thrown in a request to a catalogue error; internals never reach the client. */
export function toApiError(error: FastifyError | ApiError | Error): ApiError {
  if (error instanceof ApiError) return error;
  const e = error as FastifyError & { validation?: ValidationIssue[]; validationContext?: string };
  if (Array.isArray(e.validation) && e.validation.length > 0) {
    const issue = e.validation[0];
    let field = `${e.validationContext ?? 'body'}${issue.instancePath ?? ''}`;
    let message = issue.message ?? 'is invalid';
    const extra = issue.params?.additionalProperties ?? issue.params?.additionalProperty;
    if (issue.keyword === 'additionalProperties' && extra !== undefined) {
      const names = Array.isArray(extra) ? extra : [extra];
      field = `${field}/${String(names[0])}`;
      message = `is not an allowed property`;
    } else if (issue.keyword === 'boolean') {
      // TypeBox closes objects with a false schema per unknown property: say so in words.
      message = 'is not an allowed property';
    } else if (issue.keyword === 'const') {
      // An enum is a union of constants: list every allowed value at this path, not just the first.
      const allowed = e.validation
        .filter((other) => other.keyword === 'const' && other.instancePath === issue.instancePath)
        .map((other) => JSON.stringify(other.params?.allowedValue));
      message = allowed.length > 1 ? `must be one of ${allowed.join(', ')}` : `must be ${allowed[0]}`;
    }
    return new ApiError('VALIDATION_ERROR', `${field} ${message}`, { field });
  }
  const byCode: Record<string, ErrorCode> = {
    FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_JSON',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  };
  const mapped = e.code === undefined ? undefined : byCode[e.code];
  const body = { field: 'body' };
  if (mapped !== undefined) return new ApiError(mapped, `body: ${e.message}`, body);
  if (e.statusCode === 429) return new ApiError('RATE_LIMITED', e.message, { retryAfter: 60 });
  if (e.statusCode === 400 || error instanceof SyntaxError) return new ApiError('INVALID_JSON', `body is not valid JSON: ${e.message}`, body);
  if (e.statusCode === 413) return new ApiError('BODY_TOO_LARGE', `body: ${e.message}`, body);
  if (e.statusCode === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE', `body: ${e.message}`, body);
  if (e.statusCode === 404) return new ApiError('NOT_FOUND', e.message);
  if (e.statusCode === 503) return new ApiError('SHUTTING_DOWN', 'the service is shutting down', { retryAfter: 1 });
  return new ApiError('INTERNAL_ERROR', 'internal server error');
}
