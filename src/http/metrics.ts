/**
 * Prometheus metrics (prom-client), one registry per app so tests and replicas never share state.
 * GET /metrics serves the text exposition format.
 */
import type { FastifyPluginAsync } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from '../vendor/prom-client.js';
import type { SearchRunner } from './types.js';

export interface SearchObservation {
  readonly game: string;
  readonly depth: number;
  readonly nodes: number;
  readonly nps: number;
  readonly queueMs: number;
  readonly stopReason: string;
  /** 'worker', 'fallback' (answered on the main thread at the deadline), 'cache' or 'direct'. */
  readonly source: string;
}

/** What a replica did with Redis when it answered from its own state instead. */
export type RedisOperation = 'cache_get' | 'cache_set' | 'rate_limit';
export type RedisFallbackReason = 'unavailable' | 'timeout' | 'error';
/** Where a result-cache hit came from. */
export type CacheTier = 'local' | 'redis';

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'route' | 'method' | 'status'>;
  private readonly queueWait: Histogram<'game'>;
  private readonly depth: Histogram<'game'>;
  private readonly nodes: Histogram<'game'>;
  private readonly nps: Histogram<'game'>;
  private readonly stops: Counter<'game' | 'reason' | 'source'>;
  private readonly rejected: Counter<'reason'>;
  private readonly cancelled: Counter<'game'>;
  private readonly cache: Counter<'result' | 'tier'>;
  private redisFallbacks: Counter<'operation' | 'reason'> | undefined;

  constructor(pool: SearchRunner) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'kibitz_' });
    this.httpDuration = new Histogram({
      name: 'kibitz_http_request_duration_seconds',
      help: 'HTTP request duration by route and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.queueWait = new Histogram({
      name: 'kibitz_search_queue_wait_seconds',
      help: 'Time a best-move request waited for a search worker.',
      labelNames: ['game'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 5, 30],
      registers,
    });
    this.depth = new Histogram({
      name: 'kibitz_search_depth',
      help: 'Deepest completed iteration per search.',
      labelNames: ['game'],
      buckets: [1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 30, 50],
      registers,
    });
    this.nodes = new Histogram({
      name: 'kibitz_search_nodes',
      help: 'Nodes visited per search.',
      labelNames: ['game'],
      buckets: [1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8],
      registers,
    });
    this.nps = new Histogram({
      name: 'kibitz_search_nodes_per_second',
      help: 'Search speed.',
      labelNames: ['game'],
      buckets: [1e4, 5e4, 1e5, 2.5e5, 5e5, 1e6, 2.5e6, 5e6, 1e7],
      registers,
    });
    this.stops = new Counter({
      name: 'kibitz_search_total',
      help: 'Searches answered, by stop reason and where the answer came from.',
      labelNames: ['game', 'reason', 'source'],
      registers,
    });
    this.rejected = new Counter({
      name: 'kibitz_search_rejected_total',
      help: 'best-move requests refused with 503 (queue full or shutting down).',
      labelNames: ['reason'],
      registers,
    });
    this.cancelled = new Counter({
      name: 'kibitz_search_cancelled_total',
      help: 'Searches cancelled because their client disconnected.',
      labelNames: ['game'],
      registers,
    });
    this.cache = new Counter({
      name: 'kibitz_result_cache_total',
      help: 'Result cache lookups by result (hit or miss) and, for hits, tier (local: this replica; redis: shared).',
      labelNames: ['result', 'tier'],
      registers,
    });
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    gauge('kibitz_pool_threads', 'Search worker threads.', () => pool.stats().threads);
    gauge('kibitz_pool_running', 'Searches running now.', () => pool.stats().running);
    gauge('kibitz_pool_queue_depth', 'Searches waiting for a worker.', () => pool.stats().queued);
    gauge('kibitz_pool_queue_capacity', 'Most searches allowed to wait (MAX_QUEUE).', () => pool.stats().maxQueue);
    gauge('kibitz_pool_utilization', 'Share of worker time spent searching since start (0..1).', () => pool.stats().utilization);
    gauge('kibitz_pool_failed_total', 'Searches whose worker threw or died.', () => pool.stats().failed);
    gauge('kibitz_pool_overruns_total', 'Searches answered by the fallback because they ran past their deadline.', () => pool.stats().overruns);
    gauge('kibitz_pool_threads_terminated_total', 'Worker threads terminated because a search would not stop.', () => pool.stats().terminated);
  }

  observeRequest(route: string, method: string, status: number, seconds: number): void {
    this.httpDuration.observe({ route, method, status: String(status) }, seconds);
  }

  observeSearch(o: SearchObservation): void {
    this.stops.inc({ game: o.game, reason: o.stopReason, source: o.source });
    if (o.source !== 'worker') return;
    this.queueWait.observe({ game: o.game }, o.queueMs / 1000);
    this.depth.observe({ game: o.game }, o.depth);
    this.nodes.observe({ game: o.game }, o.nodes);
    this.nps.observe({ game: o.game }, o.nps);
  }

  countRejected(reason: 'queue_full' | 'starting' | 'shutting_down' | 'too_many_streams'): void {
    this.rejected.inc({ reason });
  }

  countCancelled(game: string): void {
    this.cancelled.inc({ game });
  }

  countCache(tier: CacheTier | undefined): void {
    this.cache.inc(tier === undefined ? { result: 'miss', tier: 'none' } : { result: 'hit', tier });
  }

  /** Registers the Redis metrics (only replicas with REDIS_URL export them). */
  trackRedis(isUp: () => boolean): void {
    const registers = [this.registry];
    new Gauge({
      name: 'kibitz_redis_up',
      help: 'Whether this replica shares results and rate limits through Redis now (1), or uses its own (0).',
      registers,
      collect() {
        this.set(isUp() ? 1 : 0);
      },
    });
    this.redisFallbacks = new Counter({
      name: 'kibitz_redis_fallback_total',
      help: 'Operations answered from this replica\'s own cache or limits instead of Redis: Redis unavailable, timed out or failed.',
      labelNames: ['operation', 'reason'],
      registers,
    });
  }

  countRedisFallback(operation: RedisOperation, reason: RedisFallbackReason): void {
    this.redisFallbacks?.inc({ operation, reason });
  }
}

/** The route only; the request-duration hook is added at the root so it sees every route. */
export const metricsRoutes: FastifyPluginAsync<{ metrics: ServiceMetrics }> = async (app, opts) => {
  app.get(
    '/metrics',
    { schema: { tags: ['operations'], summary: 'Prometheus metrics (text exposition format).', produces: ['text/plain'] } },
    async (_request, reply) => {
      const body = await opts.metrics.registry.metrics();
      return reply.type(opts.metrics.registry.contentType).send(body);
    },
  );
};
