/**
 * The connection to the Redis that replicas share (REDIS_URL), and whether to use it right now.
 *
 * Redis is an optimisation, never a dependency: no command waits in a queue for a connection (offline
 * queue off), every command is given up after REDIS_TIMEOUT_MS, and after a failure the replica leaves
 * Redis alone for PAUSE_MS, so while Redis is down or hung a request costs at most one timeout once a
 * second, not one each. `run` does all of that: callers get the answer, or undefined and use their
 * local state. ioredis reconnects in the background and sharing resumes by itself.
 */
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { RedisFallbackReason, RedisOperation, ServiceMetrics } from './metrics.js';

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
  private readonly timeoutMs: number;
  private pausedUntil = 0;
  /** Last state reported in the log (a line per change, not per failed command or reconnect attempt). */
  private reportedUp: boolean | undefined;
  private closed = false;

  constructor(options: RedisLinkOptions) {
    this.metrics = options.metrics;
    this.log = options.log;
    this.timeoutMs = options.timeoutMs;
    this.client = connect(options);
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

  /**
   * Runs a command when Redis is usable; undefined when it is not, fails, or has not answered within the
   * timeout (each counted, with a pause after a failure). The timeout is checked once more after the
   * event loop has read its sockets: a reply that arrived while this process was busy (a long request,
   * a CPU shared with others) is not taken for a slow Redis.
   */
  run<T>(operation: RedisOperation, command: () => Promise<T>): Promise<T | undefined> {
    if (!this.usable()) {
      this.metrics.countRedisFallback(operation, 'unavailable');
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
      let settled = false;
      const settle = (value: T | undefined, failure?: { reason: RedisFallbackReason; message: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (failure === undefined) this.succeeded();
        else this.failed(operation, failure.reason, failure.message);
        resolve(value);
      };
      const timedOut = () => settle(undefined, { reason: 'timeout', message: `no answer within ${this.timeoutMs} ms` });
      const timer = setTimeout(() => setImmediate(timedOut), this.timeoutMs);
      // Through a promise, so that a command that throws instead of rejecting is a failure like any other.
      Promise.resolve().then(command).then(
        (value) => settle(value),
        (error: unknown) => settle(undefined, { reason: 'error', message: error instanceof Error ? error.message : String(error) }),
      );
    });
  }

  private failed(operation: RedisOperation, reason: RedisFallbackReason, message: string): void {
    this.metrics.countRedisFallback(operation, reason);
    this.pausedUntil = Date.now() + PAUSE_MS;
    this.report(false, `${operation}: ${message}`);
  }

  private succeeded(): void {
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

/** The client's options. A function of its own: assigned straight to the typed field, the constructor's overloads were
 * resolved against that type, and the type check spent 3 s on that one expression. */
function connect(options: RedisLinkOptions): Redis {
  return new Redis(options.url, {
    enableOfflineQueue: false,
    // Only a backstop, so that a hung Redis does not hold commands forever: run() gives up after timeoutMs.
    commandTimeout: Math.max(1000, 10 * options.timeoutMs),
    connectTimeout: Math.max(500, options.timeoutMs),
    // A command cut by a lost connection fails at once instead of waiting to be sent again.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(attempt * RECONNECT_STEP_MS, RECONNECT_MAX_MS),
    connectionName: 'kibitz',
  });
}
