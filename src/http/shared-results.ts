/**
 * The Redis tier of the result cache: one hash per key (rank, reach, answer), expiring after REDIS_TTL_S.
 *
 * A store is one Lua script, so "keep the deeper of the two, and the larger reach" is atomic without a
 * round trip to read first. WATCH/MULTI would need its own connection (ioredis sends every command of
 * the process over one, and WATCH belongs to the connection) and a retry loop when two replicas store
 * the same position at once; the script needs neither. ioredis sends it by its SHA and loads it again
 * after a Redis restart (defineCommand).
 */
import type { Result } from 'ioredis';
import type { RedisLink } from './redis.js';
import type { SharedResults, StoredResult } from './result-cache.js';

/** Bumped when the stored answer's format changes, so replicas of two releases never read each other's. */
export const RESULT_KEY_PREFIX = 'kibitz:result:1:';

/** KEYS[1] the entry; ARGV: rank, reach (ms), answer (JSON), lifetime (ms). Returns 1 when the answer was replaced. */
const STORE_SCRIPT = `
local rank = tonumber(ARGV[1])
local reach = tonumber(ARGV[2])
local old = redis.call('HMGET', KEYS[1], 'rank', 'reach')
if old[1] then
  local oldReach = tonumber(old[2]) or 0
  if oldReach > reach then reach = oldReach end
  if tonumber(old[1]) >= rank then
    redis.call('HSET', KEYS[1], 'reach', reach)
    return 0
  end
end
redis.call('HSET', KEYS[1], 'rank', rank, 'reach', reach, 'answer', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    kibitzStoreResult(key: string, rank: number, reachMs: number, answer: string, ttlMs: number): Result<number, Context>;
  }
}

export class RedisResults implements SharedResults {
  constructor(
    private readonly link: RedisLink,
    private readonly ttlMs: number,
  ) {
    link.client.defineCommand('kibitzStoreResult', { numberOfKeys: 1, lua: STORE_SCRIPT });
  }

  async get(key: string): Promise<StoredResult | undefined> {
    const fields = await this.link.run('cache_get', () => this.link.client.hmget(RESULT_KEY_PREFIX + key, 'answer', 'reach'));
    const [answer, reach] = fields ?? [null, null];
    if (answer === null) return undefined;
    try {
      return { ...(JSON.parse(answer) as Omit<StoredResult, 'reachMs'>), reachMs: Number(reach ?? 0) };
    } catch {
      return undefined;
    }
  }

  async put(key: string, entry: StoredResult, rank: number): Promise<void> {
    const { reachMs, ...answer } = entry;
    const json = JSON.stringify(answer);
    await this.link.run('cache_set', () => this.link.client.kibitzStoreResult(RESULT_KEY_PREFIX + key, rank, reachMs, json, this.ttlMs));
  }
}
