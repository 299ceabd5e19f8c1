/**
 * Property-based fuzzing of every endpoint of every game (fast-check): random JSON and mutations of
 * valid requests (wrong types, huge numbers, unicode, prototype keys, boards of the wrong shape,
 * illegal positions). The property: never a 5xx, never a hang, and every error carries a catalogue
 * code and a message naming a field. Used by the test suite (fixed seed, few runs) and by
 * `npm run fuzz` (more runs).
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { ERROR_CATALOGUE } from '../src/http/errors.js';
import { GAME_IDS, type GameId } from '../src/games/types.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', '', ' ', 'state', 'board', 'turn', '\u0000', '𝕏'];

const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 2, -0, 0.5, 4294967296, -1),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('X', 'O', 'W', 'B', '.', 'WHITE', 'BLACK', 'KING', 'THRONE', 'EMPTY', 'pass', 'e4-e7', 'a1', 'A1', '0,0', '🂡'.repeat(50)),
  fc.constant('x'.repeat(5000)),
  fc.array(fc.string({ maxLength: 12 }), { maxLength: 12 }),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  fc.constant({} as Json),
  fc.constant([] as Json),
  fc.constant(Array.from({ length: 120 }, () => '.'.repeat(120)) as Json),
) as fc.Arbitrary<Json>;

/** Every path (array of keys/indices) inside a JSON value. */
function paths(value: Json, prefix: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (value !== null && typeof value === 'object') for (const k of Object.keys(value)) paths(value[k], [...prefix, k], out);
  return out;
}

type Mutation =
  | { kind: 'replace'; pick: number; value: Json }
  | { kind: 'delete'; pick: number }
  | { kind: 'add'; pick: number; key: string; value: Json }
  | { kind: 'truncate'; pick: number; keep: number }
  | { kind: 'duplicate'; pick: number }
  | { kind: 'wrap'; pick: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), value: hostileValue }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('add' as const),
    pick: fc.nat(),
    key: fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 8 })),
    value: hostileValue,
  }),
  fc.record({ kind: fc.constant('truncate' as const), pick: fc.nat(), keep: fc.nat({ max: 10 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('wrap' as const), pick: fc.nat() }),
);

/** Applies a mutation and returns the JSON text (so prototype keys reach the server as sent). */
export function mutate(base: Json, m: Mutation): string {
  const root = structuredClone(base) as Json;
  const all = paths(root);
  const path = all[m.pick % all.length];
  if (path.length === 0) {
    if (m.kind === 'replace') return JSON.stringify(m.value);
    if (m.kind === 'wrap') return JSON.stringify([root]);
  }
  const parentPath = path.slice(0, -1);
  const key = path[path.length - 1];
  let parent: Json = root;
  for (const p of parentPath) parent = (parent as Record<string | number, Json>)[p as never];
  const container = parent as Record<string | number, Json>;
  const target = path.length === 0 ? root : container[key as never];
  switch (m.kind) {
    case 'replace':
      if (path.length > 0) container[key as never] = m.value;
      break;
    case 'delete':
      if (Array.isArray(container)) container.splice(key as number, 1);
      else if (path.length > 0) delete container[key as never];
      break;
    case 'add': {
      const obj = target !== null && typeof target === 'object' && !Array.isArray(target) ? target : root;
      if (obj !== null && typeof obj === 'object' && !Array.isArray(obj)) {
        // Written into the text directly: JSON.stringify drops a __proto__ own key set by assignment.
        const text = JSON.stringify(root);
        const inner = JSON.stringify(obj);
        const extra = `${JSON.stringify(m.key)}:${JSON.stringify(m.value)}`;
        const patched = inner === '{}' ? `{${extra}}` : `{${extra},${inner.slice(1)}`;
        return text.replace(inner, patched);
      }
      break;
    }
    case 'truncate':
      if (Array.isArray(target)) target.length = Math.min(target.length, m.keep);
      else if (typeof target === 'string' && path.length > 0) container[key as never] = target.slice(0, m.keep);
      break;
    case 'duplicate':
      if (Array.isArray(target) && target.length > 0) target.push(structuredClone(target[0]));
      else if (typeof target === 'string' && path.length > 0) container[key as never] = target + target;
      break;
    case 'wrap':
      if (path.length > 0) container[key as never] = [target];
      break;
  }
  return JSON.stringify(root);
}

export interface Endpoint {
  readonly game: GameId;
  readonly action: 'legal-moves' | 'play' | 'best-move' | 'analyse' | 'review';
}

export const ENDPOINTS: Endpoint[] = GAME_IDS.flatMap((game) =>
  (['legal-moves', 'play', 'best-move', 'analyse', 'review'] as const).map((action) => ({ game, action })),
);

/** A valid request body for an endpoint, built from the catalogue's example state and move. */
export function validBody(action: Endpoint['action'], example: { state: Json; move: Json }): Json {
  if (action === 'play') return { state: example.state, move: example.move };
  if (action === 'best-move') return { state: example.state, timeBudgetMs: 30, maxDepth: 2 };
  if (action === 'analyse') return { state: example.state, timeBudgetMs: 30, maxDepth: 2, multiPv: 2, avoidMoves: [example.move] };
  if (action === 'review') return { initialState: example.state, moves: [example.move], timeBudgetMs: 50, maxDepth: 2 };
  return { state: example.state };
}

export interface Violation {
  readonly body: string;
  readonly status: number;
  readonly response: string;
}

/** Checks one response against the properties; returns a description of what is wrong, or null. */
export function checkResponse(status: number, body: string): string | null {
  if (status >= 500) return `status ${status}`;
  if (status === 200) return null;
  let parsed: { code?: unknown; message?: unknown; statusCode?: unknown };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return 'error body is not JSON';
  }
  if (typeof parsed.code !== 'string' || !Object.hasOwn(ERROR_CATALOGUE, parsed.code)) return `unknown code ${String(parsed.code)}`;
  if (ERROR_CATALOGUE[parsed.code as keyof typeof ERROR_CATALOGUE].status !== status) return `code ${parsed.code} with status ${status}`;
  if (typeof parsed.message !== 'string' || parsed.message.length === 0) return 'no message';
  if ([400, 422].includes(status) && !/(body|querystring|params)/.test(parsed.message)) return `message names no field: ${parsed.message}`;
  if (/node_modules|\bat .*:\d+:\d+/.test(body)) return 'stack trace leaked';
  return null;
}

export interface FuzzOptions {
  readonly runs: number;
  readonly seed: number;
}

/** Fuzzes one endpoint; resolves with the first violation fast-check found (shrunk), or null. */
export async function fuzzEndpoint(
  app: FastifyInstance,
  endpoint: Endpoint,
  example: { state: Json; move: Json },
  options: FuzzOptions,
): Promise<string | null> {
  const url = `/v1/games/${endpoint.game}/${endpoint.action}`;
  const base = validBody(endpoint.action, example);
  const bodies = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .array(mutation, { minLength: 1, maxLength: 3 })
        .map((ms) => ms.reduce<string>((text, m) => mutate(JSON.parse(text) as Json, m), JSON.stringify(base))),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  );
  const result = await fc.check(
    fc.asyncProperty(bodies, async (payload) => {
      const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
      const problem = checkResponse(res.statusCode, res.body);
      if (problem !== null) throw new Error(`${problem}; response ${res.body.slice(0, 300)}`);
    }),
    { numRuns: options.runs, seed: options.seed, endOnFailure: false },
  );
  if (!result.failed) return null;
  return `${url}: ${String(result.errorInstance ?? '')}\n  counterexample: ${JSON.stringify(result.counterexample)?.slice(0, 600)}`;
}

/** Fuzzes the initial-state query string of a game. */
export async function fuzzInitialState(app: FastifyInstance, game: GameId, options: FuzzOptions): Promise<string | null> {
  const query = fc.dictionary(
    fc.oneof(fc.constantFrom('m', 'n', 'k', '__proto__', 'x'), fc.string({ maxLength: 6 })),
    fc.oneof(fc.string({ maxLength: 12 }), fc.integer().map(String), fc.constantFrom('1e9', '-1', '0', '101', 'NaN', '3.5')),
    { maxKeys: 4 },
  );
  const result = await fc.check(
    fc.asyncProperty(query, async (q) => {
      const res = await app.inject({ method: 'GET', url: `/v1/games/${game}/initial-state`, query: q });
      const problem = checkResponse(res.statusCode, res.body);
      if (problem !== null) throw new Error(`${problem}; response ${res.body.slice(0, 300)}`);
    }),
    { numRuns: options.runs, seed: options.seed },
  );
  return result.failed ? `initial-state ${game}: ${String(result.errorInstance ?? '')} counterexample ${JSON.stringify(result.counterexample)}` : null;
}
