/**
 * A @fastify/rate-limit store that counts in Redis, shared by the replicas, and falls back to this
 * replica's own count when Redis is unavailable, slow or failing: limits become per replica for that
 * while, never off, and no request fails or waits longer than REDIS_TIMEOUT_MS for it.
 *
 * Both stores are the plugin's own (its Redis store and its local LRU store). Every request is counted
 * in the local one too, so a replica that loses Redis mid-window goes on from its own count, not zero.
 */
import { createRequire } from 'node:module';
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { RedisLink } from './redis.js';

type Count = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Count) => void;
type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0];

interface PluginStore {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  child(routeOptions: RouteOptions): PluginStore;
}

const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (continueExceeding: boolean, exponentialBackoff: boolean) => PluginStore;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: RedisLink['client'],
  key: string,
) => PluginStore;

export const RATE_LIMIT_KEY_PREFIX = 'kibitz:rate:';

class FallbackStore implements FastifyRateLimitStore {
  constructor(
    private readonly local: PluginStore,
    private readonly shared: PluginStore,
    private readonly link: RedisLink,
  ) {}

  incr(key: string, callback: Callback, timeWindow: number, max: number): void {
    this.local.incr(
      key,
      (_error, local) => {
        const shared = (): Promise<Count> =>
          new Promise((resolve, reject) => {
            const done: Callback = (error, count) => (error || !count ? reject(error ?? new Error('no count')) : resolve(count));
            this.shared.incr(key, done, timeWindow, max);
          });
        void this.link.run('rate_limit', shared).then((count) => callback(null, count ?? local));
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: RouteOptions): FastifyRateLimitStore {
    return new FallbackStore(this.local.child(routeOptions), this.shared.child(routeOptions), this.link);
  }
}

/** The store class the plugin instantiates (it passes its settings: the two flags are read from them). */
export function sharedRateLimitStore(link: RedisLink): FastifyRateLimitStoreCtor {
  return class SharedRateLimitStore extends FallbackStore {
    constructor(options: FastifyRateLimitOptions) {
      const { continueExceeding = false, exponentialBackoff = false } = options as { continueExceeding?: boolean; exponentialBackoff?: boolean };
      super(
        new LocalStore(continueExceeding, exponentialBackoff),
        new RedisStore(continueExceeding, exponentialBackoff, link.client, RATE_LIMIT_KEY_PREFIX),
        link,
      );
    }
  };
}
