/**
 * The limits that bound the memory one request can take (docs/operations.md, "Limits"), each at its
 * edge (accepted) and one past it (refused with its code and field).
 */
import t from 'tap';
import { loadConfig } from '../../../src/config.js';
import { buildApp } from '../../../src/http/app.js';
import type { SearchRunner } from '../../../src/http/types.js';
import { MAX_HISTORY } from '../../../src/http/schemas.js';
import { MAX_SIDE as MNK_MAX_SIDE } from '../../../src/games/mnk/codec.js';
import { MAX_SIDE as HADRON_MAX_SIDE } from '../../../src/games/hadron/geometry.js';
import { GAMES } from '../../../src/games/registry.js';

/** legal-moves and play never reach the pool. */
const NO_POOL: SearchRunner = {
  submit: () => Promise.reject(new Error('not used')),
  stats: () => ({
    ...{ threads: 1, running: 0, queued: 0, maxQueue: 0, completed: 0, fallbacks: 0 },
    ...{ cancelled: 0, rejected: 0, failed: 0, overruns: 0, terminated: 0, utilization: 0 },
  }),
  saturated: () => false,
};

const BODY_LIMIT = 4096;
const config = loadConfig({ WORKERS: '1', LOG_LEVEL: 'silent', BODY_LIMIT_BYTES: String(BODY_LIMIT) });
const app = await buildApp({ config, pool: NO_POOL });
await app.ready();
t.teardown(() => app.close());

const legalMoves = (game: string, payload: string) =>
  app.inject({ method: 'POST', url: `/v1/games/${game}/legal-moves`, headers: { 'content-type': 'application/json' }, payload });

t.test(`body size: BODY_LIMIT_BYTES (here ${BODY_LIMIT}) is accepted, one byte more is 413`, async (t) => {
  const json = JSON.stringify({ state: { m: 3, n: 3, k: 3, board: ['...', '...', '...'], turn: 'X' } });
  // JSON allows whitespace: pad the document to the exact size.
  const atLimit = json + ' '.repeat(BODY_LIMIT - Buffer.byteLength(json));
  t.equal(Buffer.byteLength(atLimit), BODY_LIMIT);
  t.equal((await legalMoves('mnk', atLimit)).statusCode, 200, 'exactly the limit');
  const past = await legalMoves('mnk', `${atLimit} `);
  t.equal(past.statusCode, 413, 'one byte more');
  t.equal(past.json().code, 'BODY_TOO_LARGE');
});

t.test(`history length: ${MAX_HISTORY} items are accepted, one more is refused`, async (t) => {
  const state = { m: 15, n: 15, k: 5, board: Array(15).fill('.'.repeat(15)), turn: 'X' };
  const big = loadConfig({ WORKERS: '1', LOG_LEVEL: 'silent' });
  const roomy = await buildApp({ config: big, pool: NO_POOL });
  t.teardown(() => roomy.close());
  const send = (items: number) =>
    roomy.inject({ method: 'POST', url: '/v1/games/mnk/legal-moves', payload: { state, history: Array(items).fill('7,7') } });
  t.equal((await send(MAX_HISTORY)).statusCode, 200, `${MAX_HISTORY} items`);
  const past = await send(MAX_HISTORY + 1);
  t.equal(past.statusCode, 400, `${MAX_HISTORY + 1} items`);
  t.equal(past.json().code, 'VALIDATION_ERROR');
  t.equal(past.json().field, 'body/history');
});

t.test('board size: the largest board of each game is accepted, one row more is refused', async (t) => {
  const big = loadConfig({ WORKERS: '1', LOG_LEVEL: 'silent' });
  const roomy = await buildApp({ config: big, pool: NO_POOL });
  t.teardown(() => roomy.close());
  const post = (game: string, state: unknown) => roomy.inject({ method: 'POST', url: `/v1/games/${game}/legal-moves`, payload: { state } });
  const mnk = (rows: number) => ({ m: rows, n: MNK_MAX_SIDE, k: 5, board: Array(rows).fill('.'.repeat(MNK_MAX_SIDE)), turn: 'X' });
  const atMnk = await post('mnk', mnk(MNK_MAX_SIDE));
  t.equal(atMnk.statusCode, 200, `mnk ${MNK_MAX_SIDE} x ${MNK_MAX_SIDE}`);
  t.equal(atMnk.json().moves.length, MNK_MAX_SIDE * MNK_MAX_SIDE);
  const pastMnk = await post('mnk', mnk(MNK_MAX_SIDE + 1));
  t.equal(pastMnk.statusCode, 400, `mnk ${MNK_MAX_SIDE + 1} rows`);
  t.equal(pastMnk.json().code, 'VALIDATION_ERROR');
  t.match(pastMnk.json().field, /^body\/state/);

  const hadron = GAMES.hadron.exampleState as { board: string[]; turn: string };
  t.equal(hadron.board.length, HADRON_MAX_SIDE);
  t.equal((await post('hadron', hadron)).statusCode, 200, `hadron ${HADRON_MAX_SIDE} x ${HADRON_MAX_SIDE}`);
  const pastHadron = await post('hadron', { ...hadron, board: [...hadron.board, '.'.repeat(HADRON_MAX_SIDE)] });
  t.equal(pastHadron.statusCode, 400, `hadron ${HADRON_MAX_SIDE + 1} rows`);
  t.equal(pastHadron.json().code, 'VALIDATION_ERROR');

  // Fixed boards: the start position is the edge; a ninth (Othello) or tenth (Tablut) row is refused.
  for (const game of ['othello', 'tablut'] as const) {
    const state = GAMES[game].exampleState as { board: unknown[] };
    t.equal((await post(game, state)).statusCode, 200, `${game} start position`);
    const past = await post(game, { ...state, board: [...state.board, state.board[0]] });
    t.equal(past.statusCode, 400, `${game} with one row more`);
    t.equal(past.json().code, 'VALIDATION_ERROR');
  }
});
