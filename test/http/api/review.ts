/**
 * POST /v1/games/{game}/review through the real app and pool.
 *
 * The recorded game with a known blunder is tic-tac-toe (3x3, K=3; test/fixtures/mnk/known-values.json:
 * a draw with best play), where every position is solved exactly: X takes the centre, O a corner
 * (holds the draw), X threatens 2,0 on the anti-diagonal, O plays 1,0 instead of the block (a loss:
 * win probability 0.5 -> 0) and X completes the line. Exactly ply 3 is a blunder.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { closeTestApp, testApp } from '../../support/app.js';
import { classify } from '../../../src/http/routes/review.js';
import { urlFromRoot } from '../../support/paths.js';

const ctx = await testApp({ REVIEW_MAX_PLIES: '40' });
t.teardown(() => closeTestApp(ctx));
const { app } = ctx;

const EMPTY = { m: 3, n: 3, k: 3, board: ['...', '...', '...'], turn: 'X' };
const GAME = ['1,1', '2,2', '0,2', '1,0', '2,0'];

const review = (game: string, payload: Record<string, unknown>) => app.inject({ method: 'POST', url: `/v1/games/${game}/review`, payload });

interface Ply {
  ply: number;
  side: string;
  move: { notation: string };
  bestMove: { notation: string };
  evaluation: { outcome?: string; winProbability: number };
  bestEvaluation: { outcome?: string; winProbability: number };
  winProbabilityDrop: number;
  classification: string;
}

t.test('a recorded game with a known blunder flags exactly that ply', async (t) => {
  const r = await review('mnk', { initialState: EMPTY, moves: GAME, timeBudgetMs: 5000 });
  t.equal(r.statusCode, 200, r.body);
  const body = r.json();
  const plies = body.plies as Ply[];
  t.same(plies.map((p) => [p.ply, p.side, p.move.notation]), GAME.map((m, i) => [i, i % 2 === 0 ? 'X' : 'O', m]));
  t.same(
    plies.map((p) => p.classification === 'blunder'),
    [false, false, false, true, false],
    'only ply 3 is a blunder',
  );
  t.ok(plies.every((p) => p.ply === 3 || p.classification === 'best'), 'every other move is as good as the engine\'s');
  const blunder = plies[3];
  t.equal(blunder.bestMove.notation, '2,0', 'the block');
  t.same([blunder.bestEvaluation.outcome, blunder.bestEvaluation.winProbability], ['draw', 0.5]);
  t.same([blunder.evaluation.outcome, blunder.evaluation.winProbability], ['loss', 0], 'after 1,0: lost, for O');
  t.equal(blunder.winProbabilityDrop, 0.5);
  t.same([plies[4].evaluation.outcome, plies[4].evaluation.winProbability], ['win', 1], 'the winning move, scored by its result');
  t.same(body.status, { status: 'win', winner: 'X' });
});

t.test('thresholds in win-probability terms', async (t) => {
  t.same(
    [0, 0.01, 0.049, 0.05, 0.099, 0.1, 0.149, 0.15, 0.5].map((d) => classify(d, false)),
    ['best', 'good', 'good', 'inaccuracy', 'inaccuracy', 'mistake', 'mistake', 'blunder', 'blunder'],
  );
  t.equal(classify(0.3, true), 'best', "the engine's own move is best whatever the noise");
});

t.test('bad games: the ply named, the cap configurable', async (t) => {
  const cases: Array<[unknown[], number, string, string]> = [
    [['1,1', '1,1'], 422, 'ILLEGAL_MOVE', 'body/moves/1'],
    [['1,1', '0,0', 'x'], 400, 'INVALID_MOVE_NOTATION', 'body/moves/2'],
    [[...GAME, '2,1'], 422, 'ILLEGAL_MOVE', 'body/moves/5'],
  ];
  for (const [moves, status, code, field] of cases) {
    const r = await review('mnk', { initialState: EMPTY, moves, timeBudgetMs: 1000 });
    t.same([r.statusCode, r.json().code, r.json().field], [status, code, field], JSON.stringify(moves));
  }
  const tooShort = await review('mnk', { initialState: EMPTY, moves: GAME, timeBudgetMs: 59 });
  t.same([tooShort.statusCode, tooShort.json().code, tooShort.json().field], [400, 'VALIDATION_ERROR', 'body/timeBudgetMs'], '10 ms per position');
  const noBudget = await review('mnk', { initialState: EMPTY, moves: GAME });
  t.same([noBudget.statusCode, noBudget.json().code], [400, 'VALIDATION_ERROR']);
  t.match(noBudget.json().message, /timeBudgetMs/, 'the missing budget named');
  const badStart = await review('mnk', { initialState: { ...EMPTY, board: ['XX.', '...', '...'] }, moves: GAME, timeBudgetMs: 1000 });
  t.same([badStart.statusCode, badStart.json().field?.startsWith('body/initialState')], [422, true], badStart.body);
  const record = JSON.parse(readFileSync(urlFromRoot('tools/records/tablut-100ms-seed12.jsonl'), 'utf8').split('\n')[0]);
  const moves = [...record.opening, ...record.moves] as string[];
  t.equal(moves.length, 63);
  const long = await review('tablut', { moves, timeBudgetMs: 1000 });
  t.same([long.statusCode, long.json().code, long.json().field], [422, 'GAME_TOO_LONG', 'body/moves'], 'REVIEW_MAX_PLIES=40');
});

t.test('a whole Tablut game in parallel within its budget, queue included', async (t) => {
  const record = JSON.parse(readFileSync(urlFromRoot('tools/records/tablut-100ms-seed12.jsonl'), 'utf8').split('\n')[0]);
  const moves = ([...record.opening, ...record.moves] as string[]).slice(0, 40);
  const budget = 3000;
  const r = await review('tablut', { moves, timeBudgetMs: budget });
  t.equal(r.statusCode, 200, r.body);
  const body = r.json();
  t.equal(body.plies.length, 40);
  // Generous slack: the answer is due at the budget; the machine may be busy.
  t.ok(body.elapsedMs <= budget + 1000, `answered in ${body.elapsedMs} ms for a ${budget} ms budget`);
  t.ok(
    body.plies.every((p: Ply) => p.winProbabilityDrop >= 0 && p.winProbabilityDrop <= 1 && p.evaluation.winProbability >= 0),
    'drops and probabilities in range',
  );
  t.ok(body.plies.every((p: Ply, i: number) => p.side === (i % 2 === 0 ? 'WHITE' : 'BLACK')), 'White moves first');
});
