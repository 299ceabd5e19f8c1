/**
 * Othello through the HTTP API (legal-moves, play, best-move), with the search run in-process
 * (runTask, the worker's body) so no compiled worker is needed. Expected values come from
 * vectors.json and endgames.json of the reference set shared/reference/othello (copied to test/fixtures/othello):
 * the field used is named beside each assertion.
 */
import t from 'tap';
import { loadConfig } from '../../../src/config.js';
import { buildApp } from '../../../src/http/app.js';
import { Readiness } from '../../../src/http/readiness.js';
import type { SearchRunner } from '../../../src/http/types.js';
import { runTask } from '../../../src/pool/run-task.js';
import { fixture, type Endgame, type Vector } from './helpers.js';

const vectors = fixture<{ vectors: Vector[] }>('vectors.json').vectors;
const endgames = fixture<{ positions: Endgame[] }>('endgames.json').positions;

const inProcess: SearchRunner = {
  async submit(job) {
    return { result: runTask(job.task, 4), source: 'worker' };
  },
  stats() {
    return {
      threads: 1,
      running: 0,
      queued: 0,
      maxQueue: 16,
      completed: 0,
      fallbacks: 0,
      cancelled: 0,
      rejected: 0,
      failed: 0,
      overruns: 0,
      terminated: 0,
      utilization: 0,
    };
  },
  saturated: () => false,
};

const config = loadConfig({ WORKERS: '1', TT_SIZE_MB: '4', LOG_LEVEL: 'silent', CACHE_ENTRIES: '0' });
const app = await buildApp({ config, pool: inProcess, readiness: new Readiness('ready') });
await app.ready();
t.teardown(() => app.close());

const post = (path: string, payload: object) => app.inject({ method: 'POST', url: `/v1/games/othello/${path}`, payload });

/** A full board, 40 white discs against 24 black: the game is over and White has won. */
const FINISHED = { board: ['WWWWWWWW', 'WWWWWWWW', 'WWWWWWWW', 'WWWWWWWW', 'WWWWWWWW', 'BBBBBBBB', 'BBBBBBBB', 'BBBBBBBB'], turn: 'B' };

t.test('legal-moves: the start has d3, c4, f5, e6 (perft.json rows[0]: 4 moves)', async (t) => {
  const res = await post('legal-moves', {
    state: { board: ['........', '........', '........', '...WB...', '...BW...', '........', '........', '........'], turn: 'B' },
  });
  t.equal(res.statusCode, 200);
  t.same(res.json().moves.map((m: { notation: string }) => m.notation), ['d3', 'c4', 'f5', 'e6']);
  t.same(res.json().status, { status: 'ongoing' });
});

t.test('legal-moves on a finished game: status with the winner, no moves', async (t) => {
  const res = await post('legal-moves', { state: FINISHED });
  t.equal(res.statusCode, 200);
  t.same(res.json(), { moves: [], status: { status: 'win', winner: 'W' } });
  // vectors.json v177-edge: after.gameOver is true once b8 is played.
  const v = vectors.find((x) => x.id === 'v177-edge')!;
  const after = await post('legal-moves', { state: { board: v.after.board, turn: v.turn === 'B' ? 'W' : 'B' } });
  t.same(after.json().moves, [], 'v177-edge after.gameOver: no moves');
  t.not(after.json().status.status, 'ongoing');
});

t.test('best-move and play on a finished game: 422 GAME_OVER naming body/state', async (t) => {
  const best = await post('best-move', { state: FINISHED, timeBudgetMs: 100 });
  t.equal(best.statusCode, 422);
  t.match(best.json(), { code: 'GAME_OVER', field: 'body/state' });
  const play = await post('play', { state: FINISHED, move: 'a1' });
  t.equal(play.statusCode, 422);
  t.match(play.json(), { code: 'GAME_OVER', field: 'body/state' });
});

t.test('a side without moves: legal-moves is [pass], play pass hands the turn over', async (t) => {
  // vectors.json v189-pass: move "pass", after.board equals board, after.sideToMove.
  const v = vectors.find((x) => x.id === 'v189-pass')!;
  const state = { board: v.board, turn: v.turn };
  const legal = await post('legal-moves', { state });
  t.same(legal.json().moves, [{ notation: 'pass' }]);
  const played = await post('play', { state, move: { notation: 'pass' } });
  t.equal(played.statusCode, 200);
  t.same(played.json().state, { board: v.after.board, turn: v.after.sideToMove });
  const illegal = await post('play', { state, move: 'h8' });
  t.equal(illegal.statusCode, 422, 'a disc move is illegal when the side must pass');
});

t.test('play: a vector move gives after.board (vectors.json v1)', async (t) => {
  const v = vectors[0];
  const res = await post('play', { state: { board: v.board, turn: v.turn }, move: v.move });
  t.equal(res.statusCode, 200);
  t.same(res.json().state.board, v.after.board);
  t.same(res.json().status, { status: 'ongoing' });
});

t.test('client errors name the field', async (t) => {
  const badRow = await post('legal-moves', {
    state: { board: ['........', '........', '........', '...WB...', '...BX...', '........', '........', '........'], turn: 'B' },
  });
  t.equal(badRow.statusCode, 400);
  t.match(badRow.json(), { field: 'body/state/board/4' });
  const badMove = await post('play', { state: { board: vectors[0].board, turn: vectors[0].turn }, move: 'z9' });
  t.equal(badMove.statusCode, 400);
  t.match(badMove.json().field, /^body\/move/);
});

t.test('best-move on a reference endgame: exact outcome and disc differential', async (t) => {
  // endgames.json e01 (12 empties): exactScore -30, bestMoves [a1].
  const e = endgames.find((x) => x.id === 'e01')!;
  const res = await post('best-move', { state: { board: e.board, turn: e.turn }, timeBudgetMs: 2000 });
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.ok(e.bestMoves.includes(body.move.notation), `${body.move.notation} is one of bestMoves`);
  t.equal(body.evaluation.score, e.exactScore, 'endgames.json e01 exactScore');
  t.equal(body.evaluation.outcome, 'loss');
  t.equal(body.stopReason, 'proven');
});

t.test('best-move in the opening answers a legal move within the budget', async (t) => {
  const started = Date.now();
  const res = await post('best-move', {
    state: { board: ['........', '........', '........', '...WB...', '...BW...', '........', '........', '........'], turn: 'B' },
    timeBudgetMs: 200,
  });
  const elapsed = Date.now() - started;
  t.equal(res.statusCode, 200);
  t.ok(['d3', 'c4', 'f5', 'e6'].includes(res.json().move.notation));
  t.equal(res.json().evaluation.outcome, undefined, 'a heuristic answer carries no outcome');
  // Generous slack: a loaded machine must still answer well before 5x the budget.
  t.ok(elapsed < 1000, `answered in ${elapsed} ms for a 200 ms budget`);
});
