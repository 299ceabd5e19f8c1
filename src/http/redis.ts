/**
 * The connection to the Redis that replicas share (REDIS_URL), and whether to use it right now.
 *
 * Redis is an optimisation, never a dependency: no command waits in a queue for a connection
 * (offline queue off), every command gives up after REDIS_TIMEOUT_MS, and after a failure the replica
 * leaves Redis alone for PAUSE_MS, so while Redis is down or hung a request costs at most one timeout
 * once a second, not one each. Callers ask `usable()` first and fall back to their local state when it
 * says no or a command fails; ioredis reconnects in the background and sharing resumes by itself.
 */
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { RedisOperation, ServiceMetrics } from './metrics.js';

/** How long Redis is left alone after a failed command (a reconnect ends the pause at once). */
export const PAUSE_MS = 1000;
/** Reconnect attempts: 50 ms, 100 ms, ... then every 500 ms for as long as it takes. */
const RECONNECT_STEP_MS = 50;
const RECONNECT_MAX_MS = 500;

export interface RedisLinkOptions {
  readonly url: string;
  readonly timeoutMs: number;
  readonly metrics: ServiceMetrics;
  readonly log: FastifyBaseLogger;
}

export class RedisLink {
  readonly client: Redis;
  private readonly metrics: ServiceMetrics;
  private readonly log: FastifyBaseLogger;
  private pausedUntil = 0;
  /** Last state reported in the log (a line per change, not per failed command or reconnect attempt). */
  private reportedUp: boolean | undefined;
  private closed = false;

  constructor(options: RedisLinkOptions) {
    this.metrics = options.metrics;
    this.log = options.log;
    this.client = new Redis(options.url, {
      enableOfflineQueue: false,
      commandTimeout: options.timeoutMs,
      connectTimeout: Math.max(500, options.timeoutMs),
      // A command cut by a lost connection fails at once instead of waiting to be sent again.
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      retryStrategy: (attempt) => Math.min(attempt * RECONNECT_STEP_MS, RECONNECT_MAX_MS),
      connectionName: 'kibitz',
    });
    this.client.on('ready', () => {
      this.pausedUntil = 0;
      this.report(true);
    });
    this.client.on('close', () => this.report(false, 'connection closed'));
    // ioredis emits an error for every failed connection attempt: the state change is logged once, in report().
    this.client.on('error', (error: Error) => this.report(false, error.message));
    options.metrics.trackRedis(() => this.reportedUp === true && this.usable());
  }

  /** Whether to try Redis now: connected, and not paused after a recent failure. */
  usable(): boolean {
    return !this.closed && this.client.status === 'ready' && Date.now() >= this.pausedUntil;
  }

  /** The caller answers from its local state instead: counts it, and pauses Redis after a failure. */
  fellBack(operation: RedisOperation, error?: unknown): void {
    if (error === undefined) {
      this.metrics.countRedisFallback(operation, 'unavailable');
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    this.metrics.countRedisFallback(operation, /timed out/i.test(message) ? 'timeout' : 'error');
    this.pausedUntil = Date.now() + PAUSE_MS;
    this.report(false, `${operation}: ${message}`);
  }

  /** A command succeeded: Redis is back if it was paused. */
  succeeded(): void {
    if (this.reportedUp !== true) this.report(true);
  }

  close(): void {
    this.closed = true;
    this.client.disconnect();
  }

  private report(up: boolean, reason?: string): void {
    if (this.closed || this.reportedUp === up) return;
    this.reportedUp = up;
    if (up) this.log.info('redis available: results and rate limits are shared');
    else this.log.warn({ reason }, 'redis unavailable: this replica uses its own result cache and rate limits until it returns');
  }
}
