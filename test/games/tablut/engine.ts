/**
 * The Tablut engine face: profiles wired into index.ts, incremental Zobrist hashing, a side without
 * legal moves losing, the tactics the search must never miss at a tiny budget, repetition draws
 * avoided when winning and sought when losing, and deadlines honoured.
 *
 * Sources of the expected numbers:
 * - reference positions are prefixes of vectors.json games[i].moves (test/fixtures/tablut, copied
 *   from the reference set shared/reference/tablut): games[0] ply 4, games[2] ply 13, games[7] ply 20,
 *   games[9] ply 107, the positions the repetition tests find by scanning the games, and every
 *   move of the 10 games for the hashing test;
 * - the hand-built tactical positions follow RULES.md ("the king lands on any edge square" wins,
 *   king captured "like a pawn" away from the throne, squares named column a..i + row 1..9); the
 *   expected moves are the only winning ones, worked out by hand in the comments;
 * - a draw scores DRAW_SCORE = 0 and a side without a legal move loses (RULES.md "End of the game";
 *   src/search/score.ts for the internal scale).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { definition, engine } from '../../../src/games/tablut/index.js';
import { moveName, parseSquare, SQUARES } from '../../../src/games/tablut/board.js';
import { isLegal } from '../../../src/games/tablut/codec.js';
import { DefaultEvaluator } from '../../../src/games/tablut/evaluation.js';
import { SeedEvaluator } from '../../../src/games/tablut/seed-eval.js';
import { MAX_MOVES, STATUS_DRAW, STATUS_ONGOING, type TablutPosition } from '../../../src/games/tablut/position.js';
import { solveTactics } from '../../../src/games/tablut/tactics.js';
import { statusOf } from '../../../src/http/game-service.js';
import { analyse } from '../../../src/search/analyse.js';
import { Searcher } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { PROVEN_THRESHOLD, WIN_SCORE } from '../../../src/search/score.js';
import type { GameDefinition, SearchPosition } from '../../../src/games/types.js';

const vectors = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../fixtures/tablut/vectors.json', import.meta.url)), 'utf8'),
);
const initialState = (definition.initialState({}) as { ok: true; value: any }).value;

function decode(state: unknown, history?: unknown[]): TablutPosition {
  const r = definition.decodeState(state, history);
  if (!r.ok) throw new Error(`${r.error.field}: ${r.error.message}`);
  return r.value;
}

function code(pos: TablutPosition, notation: string): number {
  const r = definition.decodeMove(pos, notation, 'move');
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** The position after the first `plies` moves of reference game `game`. */
function referencePosition(game: number, plies: number): TablutPosition {
  const pos = decode(initialState);
  for (const m of vectors.games[game].moves.slice(0, plies)) pos.makeMove(code(pos, m));
  return pos;
}

/** A state JSON from piece lists (the throne shows THRONE unless the king stands on it). */
function build(king: string, white: string[], black: string[], turn: 'WHITE' | 'BLACK') {
  const board = Array.from({ length: 9 }, () => Array.from({ length: 9 }, () => 'EMPTY'));
  const put = (square: string, cell: string) => {
    const s = parseSquare(square);
    board[Math.floor(s / 9)][s % 9] = cell;
  };
  put('e5', 'THRONE');
  put(king, 'KING');
  for (const w of white) put(w, 'WHITE');
  for (const b of black) put(b, 'BLACK');
  return { board, turn };
}

/** Searches a fresh copy of `pos` (default profile) with the given limits through analyse(). */
function think(pos: TablutPosition, limits: { maxDepth?: number; deadline?: number; nodeLimit?: number }) {
  const own = engine.restore(engine.snapshot(pos));
  const result = analyse(engine, own, new Searcher(new TranspositionTable(4)), limits);
  return { ...result, name: result.move >= 0 ? moveName(result.move) : '-' };
}

/** Budgets from "none at all" up: a passed deadline, one ply, a handful of nodes. */
const TINY_BUDGETS = [
  { label: 'deadline already passed', limits: () => ({ deadline: Date.now() - 1 }) },
  { label: 'depth 1', limits: () => ({ maxDepth: 1 }) },
  { label: '50 nodes', limits: () => ({ nodeLimit: 50 }) },
];

t.test('index.ts wires the evaluation profiles', async (t) => {
  const pos = referencePosition(2, 13);
  const snapshot = engine.snapshot(pos);
  t.type(engine.restore(snapshot).evaluator, DefaultEvaluator, 'no profile: the default (strong) evaluation');
  t.type(engine.restore(snapshot, { profile: 'default' }).evaluator, DefaultEvaluator);
  t.type(engine.restore(snapshot, { profile: 'seed' }).evaluator, SeedEvaluator, "'seed': the snAI weights");
  t.type(engine.restore(snapshot, { profile: 'nonsense' }).evaluator, DefaultEvaluator, 'unknown names fall back');
  t.type(decode(initialState).evaluator, DefaultEvaluator, 'decodeState gives the default evaluation');
  const strong = engine.restore(snapshot).evaluate();
  const seed = engine.restore(snapshot, { profile: 'seed' }).evaluate();
  t.not(strong, 0, 'the default evaluation is not a stub');
  t.not(strong, seed, 'the two profiles evaluate differently');
  t.equal(engine.solve, solveTactics, 'the tactical solve hook is installed');
});

t.test('incremental Zobrist hash matches a full recomputation along the 10 reference games', async (t) => {
  let checked = 0;
  for (const [i, g] of vectors.games.entries()) {
    const pos = decode(initialState);
    const start = [pos.hashLo, pos.hashHi];
    const startBoard = Uint8Array.from(pos.board);
    const played: number[] = [];
    for (const m of g.moves) {
      const move = code(pos, m);
      pos.makeMove(move);
      played.push(move);
      const [lo, hi] = pos.computeHash();
      if (lo !== pos.hashLo || hi !== pos.hashHi) t.fail(`game ${i} after ${m}: hash drifted`);
      checked++;
    }
    for (let k = played.length - 1; k >= 0; k--) pos.unmakeMove(played[k]);
    t.same([pos.hashLo, pos.hashHi], start, `game ${i}: unmaking every move restores the initial hash`);
    t.same(pos.board, startBoard, `game ${i}: and the initial board`);
    t.equal(pos.status, STATUS_ONGOING, `game ${i}: and the status`);
  }
  t.equal(checked, vectors.games.reduce((n: number, g: any) => n + g.plies, 0), 'every ply of vectors.json games[].plies checked');
  // The side to move is part of the hash.
  const pos = decode(initialState);
  const black = decode({ ...initialState, turn: 'BLACK' });
  t.not(pos.hashLo ^ black.hashLo, 0, 'same board, other side to move: different hash');
});

t.test('a side with no legal move has lost', async (t) => {
  // Black's only pawn a1 is walled in by the white pawns a2 and b1.
  const blackStuck = decode(build('e5', ['a2', 'b1'], ['a1'], 'BLACK'));
  t.equal(blackStuck.generateMoves(new Int32Array(MAX_MOVES), 0), 0, 'no legal move for Black');
  const r = think(blackStuck, { maxDepth: 4 });
  t.equal(r.move, -1, 'no move suggested');
  t.equal(r.score, -WIN_SCORE, 'a loss for the side to move');
  t.same(statusOf(definition as unknown as GameDefinition<SearchPosition>, blackStuck), { status: 'win', winner: 'WHITE' });

  // White has only the king, on b2, boxed in by black pawns on a2, c2, b1, b3.
  const whiteStuck = decode(build('b2', [], ['a2', 'c2', 'b1', 'b3'], 'WHITE'));
  t.equal(whiteStuck.generateMoves(new Int32Array(MAX_MOVES), 0), 0, 'no legal move for White');
  t.equal(think(whiteStuck, { maxDepth: 4 }).score, -WIN_SCORE);
  t.same(statusOf(definition as unknown as GameDefinition<SearchPosition>, whiteStuck), { status: 'win', winner: 'BLACK' });
});

t.test('tactics found at any budget', async (t) => {
  // Escape in one: column c above the king on c7 is empty, c9 is an edge square. Every other
  // line of the king is shut (b7 white, d7 black, c6 white).
  const escape = decode(build('c7', ['b7', 'c6', 'g3'], ['d7', 'h5', 'a4', 'e2'], 'WHITE'));
  // King capture in one: the king on c7 (away from the throne) has a black pawn on b7; the black
  // pawn g7 slides over f7, e7 to d7 and captures it.
  const capture = decode(build('c7', ['c5', 'g3'], ['b7', 'g7', 'h5', 'e2'], 'BLACK'));
  // Double escape threat: the king f3 (lines shut by the camp f1, the pawns f4, b3, h3) goes to c3,
  // where column c is empty both ways: Black can block c1-c2 or c4-c9, not both, and no black
  // pawn can reach d3 (the square opposite b3) to capture the king.
  const double = decode(build('f3', ['f4', 'b3', 'g6'], ['h3', 'a8', 'i7', 'g9'], 'WHITE'));
  // Black must block the king's one open line (column c above c7, as in the escape position): the
  // pawn a8 slides to b8 (useless) or c8 (the block); nothing else reaches c8 or c9.
  const block = decode(build('c7', ['b7', 'c6', 'g3'], ['d7', 'h5', 'a4', 'e2', 'a8'], 'BLACK'));

  for (const budget of TINY_BUDGETS) {
    t.equal(think(escape, budget.limits()).name, 'c7-c9', `${budget.label}: White escapes in one`);
    t.equal(think(capture, budget.limits()).name, 'g7-d7', `${budget.label}: Black captures the king in one`);
    t.equal(think(double, budget.limits()).name, 'f3-c3', `${budget.label}: White plays the double escape threat`);
    const blocked = think(block, budget.limits()).name;
    t.equal(blocked, 'a8-c8', `${budget.label}: Black blocks the open column c`);
  }

  // With a little depth the wins are proven: escape in 1 ply, capture in 1, double threat in 3.
  t.equal(think(escape, { maxDepth: 2 }).score, WIN_SCORE - 1);
  t.equal(think(capture, { maxDepth: 2 }).score, WIN_SCORE - 1);
  const doubleDeep = think(double, { maxDepth: 4 });
  t.equal(doubleDeep.name, 'f3-c3');
  t.equal(doubleDeep.score, WIN_SCORE - 3, 'f3-c3, any block, then the escape on the other side');
});

/**
 * Gives `pos` a history of states (Q, Q', Q'', P) in which Q = P after `move`, so that playing
 * `move` again from P repeats Q: a draw. Q' and Q'' come from a reply `b` and the two moves undone;
 * the four moves must be legal and capture nothing. Returns null when no such reply exists.
 */
function cycleHistory(pos: TablutPosition, move: number): unknown[] | null {
  const reverse = (m: number) => (m % SQUARES) * SQUARES + Math.floor(m / SQUARES);
  const target = definition.encodeState(pos);
  const pieces = () => pos.whiteCount + pos.blackCount;
  const before = pieces();
  const playable = (m: number) => isLegal(pos, m);
  if (!playable(move)) return null;
  pos.makeMove(move);
  let history: unknown[] | null = null;
  if (pieces() === before && pos.status === STATUS_ONGOING) {
    const q = definition.encodeState(pos);
    const replies = new Int32Array(MAX_MOVES);
    const count = pos.generateMoves(replies, 0);
    for (let i = 0; i < count && history === null; i++) {
      const b = replies[i];
      pos.makeMove(b);
      const q1 = definition.encodeState(pos);
      if (pieces() === before && pos.status === STATUS_ONGOING && playable(reverse(move))) {
        pos.makeMove(reverse(move));
        const q2 = definition.encodeState(pos);
        if (pieces() === before && pos.status === STATUS_ONGOING && playable(reverse(b))) {
          pos.makeMove(reverse(b));
          if (pieces() === before) history = [q, q1, q2, target];
          pos.unmakeMove(reverse(b));
        }
        pos.unmakeMove(reverse(move));
      }
      pos.unmakeMove(b);
    }
  }
  pos.unmakeMove(move);
  return history;
}

const HISTORY_DEPTH = 3;

/**
 * The first reference position (games in order, plies from 8 on) with `colour` to move whose
 * depth-3 score passes `test`: positions are found, not listed, so that a retuned evaluation
 * keeps the tests meaningful (a "clearly winning" side is one the engine itself scores at >= 300).
 */
function* referencePositions(colour: string, test: (score: number) => boolean) {
  for (let game = 0; game < vectors.games.length; game++) {
    for (let plies = 8; plies < vectors.games[game].moves.length; plies++) {
      const pos = referencePosition(game, plies);
      if (pos.status !== STATUS_ONGOING || definition.sideNames[pos.side] !== colour) continue;
      const fresh = think(decode(definition.encodeState(pos)), { maxDepth: HISTORY_DEPTH });
      if (test(fresh.score)) yield { game, plies, pos, fresh };
    }
  }
}

t.test('repetition draws: avoided when winning', async (t) => {
  // The first clearly won position per colour whose chosen move can be turned into a repetition
  // (a move out of a camp, say, cannot be undone).
  for (const colour of ['BLACK', 'WHITE']) {
    let used = false;
    for (const { game, plies, pos, fresh } of referencePositions(colour, (score) => score >= 300)) {
      const history = cycleHistory(pos, fresh.move);
      if (history === null) continue;
      used = true;
      const state = definition.encodeState(pos);
      const withHistory = decode(state, history);
      const probe = engine.restore(engine.snapshot(withHistory));
      probe.makeMove(fresh.move);
      t.equal(probe.status, STATUS_DRAW, `games[${game}] ply ${plies}: with that history ${fresh.name} repeats a position: a draw`);
      const r = think(withHistory, { maxDepth: HISTORY_DEPTH });
      t.not(r.name, fresh.name, `games[${game}] ply ${plies}: ${colour} (${fresh.score}) avoids the drawing ${fresh.name} (played ${r.name})`);
      t.ok(r.score > 0, `and ${colour} still expects to win (${r.score})`);
      break;
    }
    t.ok(used, `${colour}: a clearly won position could be given a repetition history`);
  }
});

t.test('repetition draws: sought when losing', async (t) => {
  // The first clearly lost reference position with a move that can be made a repetition, and
  // games[9] ply 107, where Black loses with the king on an open line, so the forced-reply
  // generator must keep the drawing move as well as the blocks.
  const lost = (score: number) => score <= -300;
  const found = referencePositions('WHITE', lost).next();
  t.ok(!found.done, 'a clearly lost position for White exists in the reference games');
  const openLine = referencePosition(9, 107);
  const openLineFresh = think(decode(definition.encodeState(openLine)), { maxDepth: HISTORY_DEPTH });
  const cases = [found.value!, { game: 9, plies: 107, pos: openLine, fresh: openLineFresh }];
  for (const { game, plies, pos, fresh } of cases) {
    const state = definition.encodeState(pos);
    t.ok(lost(fresh.score), `games[${game}] ply ${plies}: the side to move is losing (${fresh.score})`);
    // The first legal move other than the engine's choice that can be made a repetition.
    const moves = new Int32Array(MAX_MOVES);
    const count = pos.generateMoves(moves, 0);
    let drawing = -1;
    let history: unknown[] | null = null;
    for (let i = 0; i < count && history === null; i++) {
      if (moves[i] === fresh.move) continue;
      history = cycleHistory(pos, moves[i]);
      drawing = moves[i];
    }
    t.ok(history !== null, 'a move that can be made a repetition exists');
    const r = think(decode(state, history!), { maxDepth: HISTORY_DEPTH });
    t.equal(r.name, moveName(drawing), `games[${game}] ply ${plies}: the repetition ${moveName(drawing)} is chosen`);
    t.equal(r.score, 0, 'scored as a draw');
  }
});

t.test('deadlines are honoured from busy positions (generous slack)', async (t) => {
  const positions = [referencePosition(0, 4), referencePosition(2, 13), referencePosition(7, 20), referencePosition(9, 107)];
  for (const [i, pos] of positions.entries()) {
    const started = Date.now();
    const r = think(pos, { deadline: started + 40 });
    const elapsed = Date.now() - started;
    t.ok(isLegal(pos, r.move), `position ${i}: a legal move (${r.name})`);
    t.ok(elapsed < 40 + 1000, `position ${i}: answered ${elapsed} ms after a 40 ms deadline was set`);
  }
  // The solve hook returns at once when there is no win in one, and never claims one falsely.
  const quiet = referencePosition(2, 13);
  t.equal(solveTactics(quiet, { deadline: Date.now(), shouldStop: () => true }), null);
  const capture = decode(build('c7', ['c5', 'g3'], ['b7', 'g7', 'h5', 'e2'], 'BLACK'));
  const solved = solveTactics(capture, { deadline: Date.now(), shouldStop: () => true });
  t.equal(solved !== null && moveName(solved.move), 'g7-d7');
  t.ok(solved !== null && solved.score >= PROVEN_THRESHOLD, 'a proven win');
});
