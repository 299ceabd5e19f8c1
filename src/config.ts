/**
 * Service configuration from the environment. Every knob has a sensible default so `npm start`
 * needs nothing; invalid values fail fast at start-up with a message naming the variable.
 */
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';

export interface Config {
  readonly host: string;
  readonly port: number;
  /** Search worker threads (one per core is right: searches are CPU-bound). */
  readonly workers: number;
  /** Most threads (workers) one search may use (a request's `threads`, Lazy SMP). */
  readonly maxSearchThreads: number;
  /** Searches allowed to wait for a worker; beyond it requests get 503 at once. */
  readonly maxQueue: number;
  /** A 503 QUEUE_FULL refusal is sent after this long at most (and never after half the request's budget). */
  readonly refusalHoldMs: number;
  /** Nice value of the search threads (0-19): the event loop stays responsive while every core searches. */
  readonly searchNice: number;
  /** Transposition table size per worker, MiB. */
  readonly ttSizeMb: number;
  readonly defaultTimeBudgetMs: number;
  readonly maxTimeBudgetMs: number;
  /** Deepest iteration a client may ask for. */
  readonly maxDepth: number;
  readonly bodyLimitBytes: number;
  /** Whole request (headers and body) must arrive within this, or 408 REQUEST_TIMEOUT. */
  readonly requestTimeoutMs: number;
  /** After an early answer (413, ...), the rest of the body is read and discarded up to these bounds. */
  readonly bodyDrainMaxBytes: number;
  readonly bodyDrainTimeoutMs: number;
  readonly logLevel: string;
  /** Browser origins allowed by CORS; empty = CORS off. '*' allows any origin. */
  readonly corsOrigins: readonly string[];
  /** Requests per minute per client IP; 0 = no rate limiting. */
  readonly rateLimitPerMinute: number;
  /** Entries of the per-replica result cache; 0 = off. */
  readonly cacheEntries: number;
  /**
   * Redis shared by the replicas for finished results and rate-limit counters; undefined = none (each
   * replica keeps its own). Redis is never needed to answer: while it is down or slow, replicas fall back to
   * their own cache and limits.
   */
  readonly redisUrl: string | undefined;
  /** Lifetime of a result stored in Redis, seconds. */
  readonly redisTtlS: number;
  /** Longest wait for one Redis command before the replica answers from its own cache and limits. */
  readonly redisTimeoutMs: number;
  /**
   * Proxies trusted to report the client's address (X-Forwarded-For): false, true, or addresses, CIDRs
   * and proxy-addr's names (loopback, linklocal, uniquelocal). Rate limits count per client address, so
   * behind a load balancer this must be set.
   */
  readonly trustProxy: boolean | readonly string[];
  /** Longest a graceful shutdown may take before the process exits anyway. */
  readonly shutdownTimeoutMs: number;
  readonly exposeDocs: boolean;
  /** Server-Sent Events: a comment line after this long without an event, so proxies keep the stream. */
  readonly sseHeartbeatMs: number;
  /** Analysis streams (SSE) open at once; past it 503 TOO_MANY_STREAMS. */
  readonly maxStreams: number;
  /** Most moves a review request may carry. */
  readonly reviewMaxPlies: number;
  /** Serve the browser playground (dist/web) at `/`. */
  readonly exposePlayground: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  // Not "1": it would read as one hop, and fastify trusts no hop counts (a client could forge the header).
  if (/^(true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function redisUrl(env: Env): string | undefined {
  const raw = env.REDIS_URL?.trim();
  if (raw === undefined || raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (url === undefined || !/^rediss?:$/.test(url.protocol) || url.hostname === '') {
    // Not echoed: the URL may carry a password.
    throw new Error('REDIS_URL must be a redis:// or rediss:// URL with a host, e.g. redis://redis:6379');
  }
  return raw;
}

function trustProxy(env: Env): boolean | readonly string[] {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '' || /^(0|false|no|off)$/i.test(raw)) return false;
  // Not "1": it would read as one hop, and fastify trusts no hop counts (a client could forge the header).
  if (/^(true|yes|on)$/i.test(raw)) return true;
  const list = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const named = /^(loopback|linklocal|uniquelocal)$/;
  const valid = (entry: string) => named.test(entry) || (isIP(entry.split('/')[0]) !== 0 && /^[^/]+(\/[0-9]{1,3})?$/.test(entry));
  if (list.length === 0 || !list.every(valid)) {
    throw new Error(
      `TRUST_PROXY must be true, false, or the load balancer's addresses: comma-separated IPs, CIDRs, loopback, linklocal or uniquelocal; got "${raw}"`,
    );
  }
  return list;
}

export function loadConfig(env: Env = process.env): Config {
  const workers = integer(env, 'WORKERS', Math.max(1, availableParallelism()), 1, 256);
  const maxTimeBudgetMs = integer(env, 'MAX_TIME_BUDGET_MS', 60_000, 10, 600_000);
  const defaultTimeBudgetMs = integer(env, 'DEFAULT_TIME_BUDGET_MS', Math.min(1000, maxTimeBudgetMs), 1, maxTimeBudgetMs);
  return {
    host: env.HOST ?? '0.0.0.0',
    port: integer(env, 'PORT', 8080, 0, 65535),
    workers,
    maxSearchThreads: integer(env, 'MAX_SEARCH_THREADS', workers, 1, 256),
    maxQueue: integer(env, 'MAX_QUEUE', workers * 16, 0, 100_000),
    refusalHoldMs: integer(env, 'REFUSAL_HOLD_MS', 100, 0, 10_000),
    ttSizeMb: integer(env, 'TT_SIZE_MB', 64, 1, 16_384),
    searchNice: integer(env, 'SEARCH_NICE', 10, 0, 19),
    defaultTimeBudgetMs,
    maxTimeBudgetMs,
    maxDepth: integer(env, 'MAX_DEPTH', 64, 1, 200),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 10_000, 100, 600_000),
    bodyDrainMaxBytes: integer(env, 'BODY_DRAIN_MAX_BYTES', 16 * 1024 * 1024, 0, 1024 * 1024 * 1024),
    bodyDrainTimeoutMs: integer(env, 'BODY_DRAIN_TIMEOUT_MS', 5_000, 0, 600_000),
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 0, 0, 10_000_000),
    cacheEntries: integer(env, 'CACHE_ENTRIES', 1000, 0, 10_000_000),
    redisUrl: redisUrl(env),
    redisTtlS: integer(env, 'REDIS_TTL_S', 86_400, 1, 30 * 86_400),
    redisTimeoutMs: integer(env, 'REDIS_TIMEOUT_MS', 50, 1, 5_000),
    trustProxy: trustProxy(env),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 30_000, 100, 600_000),
    exposeDocs: bool(env, 'EXPOSE_DOCS', true),
    sseHeartbeatMs: integer(env, 'SSE_HEARTBEAT_MS', 15_000, 10, 600_000),
    maxStreams: integer(env, 'MAX_STREAMS', 4 * workers, 0, 100_000),
    reviewMaxPlies: integer(env, 'REVIEW_MAX_PLIES', 400, 1, 10_000),
    exposePlayground: bool(env, 'EXPOSE_PLAYGROUND', true),
  };
}
