/**
 * Rules of Ashton Tablut as the Tablut Challenge server enforces them.
 *
 * Sources of every expected number (copied from the reference set shared/reference/tablut into
 * test/fixtures/tablut):
 * - perft.json perft.depth1.nodes / depth2.nodes / depth3.nodes (and .captures), from the server's rule code;
 * - vectors.json positions[i].legalMoves (sorted legal moves), positions[i].applied[j].state /
 *   .captured / .resultTurn (applied moves, empty repetition history), positions[i].history (the
 *   moves that led to positions[i].state, used for terminal positions);
 * - vectors.json games[i].moves / .result / .finalState (whole games replayed, repetition draws included).
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { perft } from '../../../src/search/perft.js';
import { NOT_TERMINAL, RESULT_DRAW, RESULT_LOSS } from '../../../src/search/score.js';
import { definition } from '../../../src/games/tablut/index.js';
import { moveName, squareName } from '../../../src/games/tablut/board.js';
import { TablutPosition, MAX_MOVES } from '../../../src/games/tablut/position.js';
import { isLegal } from '../../../src/games/tablut/codec.js';

const fixture = (name: string): any =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../fixtures/tablut/${name}`, import.meta.url)), 'utf8'));
const perftRef = fixture('perft.json');
const vectors = fixture('vectors.json');

function decode(state: unknown, history?: unknown[]): TablutPosition {
  const r = definition.decodeState(state, history);
  if (!r.ok) throw new Error(`decode failed: ${r.error.field}: ${r.error.message}`);
  return r.value;
}

function legalNames(pos: TablutPosition): string[] {
  const buf = new Int32Array(MAX_MOVES);
  const n = pos.generateMoves(buf, 0);
  return Array.from(buf.subarray(0, n), moveName).sort();
}

function apply(pos: TablutPosition, notation: string): number {
  const code = definition.decodeMove(pos, notation, 'body/move');
  if (!code.ok) throw new Error(code.error.message);
  if (!isLegal(pos, code.value)) throw new Error(`illegal ${notation}`);
  pos.makeMove(code.value);
  return code.value;
}

const initial = () => decode(definition.initialState({}).ok ? (definition.initialState({}) as any).value : null);

t.test('perft from the initial position (perft.json depth1..3 nodes)', async (t) => {
  const pos = initial();
  t.equal(perft(pos, 1), perftRef.perft.depth1.nodes, 'perft.json perft.depth1.nodes = 56');
  t.equal(perft(pos, 2), perftRef.perft.depth2.nodes, 'perft.json perft.depth2.nodes = 4408');
  t.equal(perft(pos, 3), perftRef.perft.depth3.nodes, 'perft.json perft.depth3.nodes = 248456');
});

t.test('capture counts at depth 2 (perft.json perft.depth2.captures)', async (t) => {
  const pos = initial();
  const buf = new Int32Array(MAX_MOVES * 2);
  let captures = 0;
  const n1 = pos.generateMoves(buf, 0);
  for (let i = 0; i < n1; i++) {
    pos.makeMove(buf[i]);
    const n2 = pos.generateMoves(buf, n1);
    for (let j = n1; j < n1 + n2; j++) {
      const before = pos.whiteCount + pos.blackCount;
      pos.makeMove(buf[j]);
      if (pos.whiteCount + pos.blackCount < before) captures++;
      pos.unmakeMove(buf[j]);
    }
    pos.unmakeMove(buf[i]);
  }
  t.equal(captures, perftRef.perft.depth2.captures);
});

t.test('every vector position: legal moves, applied moves, captures and results', async (t) => {
  for (const v of vectors.positions) {
    const pos = decode(v.state);
    const finished = ['WHITEWIN', 'BLACKWIN', 'DRAW'].includes(v.state.turn);
    if (finished) {
      t.not(pos.terminal(), NOT_TERMINAL, `${v.id}: finished state is terminal`);
      t.equal(v.legalMoveCount, 0, `${v.id}: no legal move listed for a finished state`);
      continue;
    }
    t.same(legalNames(pos), v.legalMoves, `${v.id}: legal moves (vectors.json positions[${v.id}].legalMoves)`);
    for (const a of v.applied) {
      const p = decode(v.state);
      const whiteBefore = p.whiteCount;
      const blackBefore = p.blackCount;
      const before = definition.encodeState(p) as { board: string[][] };
      apply(p, a.move);
      const after = definition.encodeState(p) as { board: string[][]; turn: string };
      t.same(after, a.state, `${v.id} ${a.move}: resulting state`);
      t.equal(after.turn, a.resultTurn, `${v.id} ${a.move}: result turn ${a.resultTurn}`);
      const captured: string[] = [];
      for (let r = 0; r < 9; r++)
        for (let c = 0; c < 9; c++)
          if (
            (before.board[r][c] === 'WHITE' || before.board[r][c] === 'BLACK') &&
            after.board[r][c] === 'EMPTY' &&
            squareName(r * 9 + c) !== a.move.slice(0, 2)
          )
            captured.push(squareName(r * 9 + c));
      t.same(captured.sort(), [...a.captured].map((x: any) => (typeof x === 'string' ? x : x.square ?? x)).sort(), `${v.id} ${a.move}: captured`);
      t.equal(whiteBefore + blackBefore - p.whiteCount - p.blackCount, a.captured.length, `${v.id} ${a.move}: capture count`);
    }
  }
});

t.test('terminal vector positions replayed from their history reach their result', async (t) => {
  for (const v of vectors.positions.filter((p: any) => p.tags.includes('terminal'))) {
    const pos = decode(v.state, v.history);
    const expected = v.state.turn === 'DRAW' ? RESULT_DRAW : RESULT_LOSS;
    t.equal(pos.terminal(), expected, `${v.id}: ${v.state.turn}`);
    t.equal((definition.encodeState(pos) as any).turn, v.state.turn, `${v.id}: encoded turn`);
  }
});

t.test('the 10 reference games replay to their recorded results', async (t) => {
  t.equal(vectors.games.length, 10);
  for (const [i, g] of vectors.games.entries()) {
    const pos = initial();
    for (const [k, m] of g.moves.entries()) {
      t.equal(pos.terminal(), NOT_TERMINAL, `game ${i}: not over before ply ${k + 1}`);
      apply(pos, m);
    }
    t.same(definition.encodeState(pos), g.finalState, `game ${i}: final state (vectors.json games[${i}].finalState)`);
    t.equal((definition.encodeState(pos) as any).turn, g.result, `game ${i}: result ${g.result} after ${g.plies} plies`);
    t.not(pos.terminal(), NOT_TERMINAL, `game ${i}: terminal`);
    // The same game given as a move history decodes to the same result.
    const viaHistory = decode(g.finalState, g.moves);
    t.equal(viaHistory.terminal(), pos.terminal(), `game ${i}: same result through body/history`);
  }
});
