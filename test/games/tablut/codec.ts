/**
 * JSON edge of Tablut: schemas, state/move decoding errors naming the field, history replay.
 * Positions come from test/fixtures/tablut/vectors.json (positions[].state / .history, games[].moves),
 * copied from the reference set shared/reference/tablut.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Compile } from '../../../src/vendor/typebox.js';
import { definition } from '../../../src/games/tablut/index.js';
import { NOT_TERMINAL, RESULT_DRAW, RESULT_LOSS } from '../../../src/search/score.js';
import type { TablutPosition } from '../../../src/games/tablut/position.js';

const vectors = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../fixtures/tablut/vectors.json', import.meta.url)), 'utf8'),
);
const initial = (definition.initialState({}) as { ok: true; value: any }).value;
const clone = <T>(x: T): T => structuredClone(x);

function decodeError(state: unknown, history?: unknown[]) {
  const r = definition.decodeState(state, history);
  if (r.ok) throw new Error('expected an error');
  return r.error;
}
function decodeOk(state: unknown, history?: unknown[]): TablutPosition {
  const r = definition.decodeState(state, history);
  if (!r.ok) throw new Error(`${r.error.field}: ${r.error.message}`);
  return r.value;
}

t.test('schemas: valid states pass, unknown properties and bad enums fail', async (t) => {
  const check = Compile(definition.stateSchema);
  t.ok(check.Check(initial), 'initial state');
  t.notOk(check.Check({ ...initial, extra: 1 }), 'additional property rejected');
  const bad = clone(initial);
  bad.board[2][3] = 'QUEEN';
  t.notOk(check.Check(bad), 'unknown cell rejected');
  t.notOk(check.Check({ ...initial, turn: 'white' }), 'turn enum is case-sensitive');
  t.notOk(check.Check({ ...initial, board: initial.board.slice(0, 8) }), '8 rows rejected');
  const move = Compile(definition.moveSchema);
  t.ok(move.Check({ from: 'e3', to: 'c3', turn: 'WHITE' }), 'server action');
  t.ok(move.Check({ notation: 'e3-c3' }), 'notation only');
  t.notOk(move.Check({ from: 'e3', to: 'c3', turn: 'WHITE', x: 1 }), 'unknown move property');
  t.notOk(move.Check({ from: 'e10', to: 'c3' }), 'square out of range');
  const item = Compile(definition.historyItemSchema!);
  t.ok(item.Check('e3-c3'));
  t.ok(item.Check(initial));
  t.notOk(item.Check('e3c3'));
  for (const schema of [definition.stateSchema, definition.moveSchema, definition.historyItemSchema!]) {
    t.type((schema as any).description, 'string');
    t.ok(Array.isArray((schema as any).examples));
  }
});

t.test('state errors name the offending field', async (t) => {
  const throneEmpty = clone(initial);
  throneEmpty.board[4][4] = 'EMPTY';
  t.match(decodeError(throneEmpty), { kind: 'position', field: 'body/state/board/4/4' });

  const strayThrone = clone(initial);
  strayThrone.board[2][2] = 'THRONE';
  t.match(decodeError(strayThrone), { kind: 'position', field: 'body/state/board/2/2', message: /c3/ });

  const whiteOnCamp = clone(initial);
  whiteOnCamp.board[0][3] = 'WHITE';
  t.match(decodeError(whiteOnCamp), { field: 'body/state/board/0/3', message: /camp/ });

  const twoKings = clone(initial);
  twoKings.board[2][2] = 'KING';
  t.match(decodeError(twoKings), { field: 'body/state/board', message: /exactly one KING/ });

  const badCell = clone(initial);
  badCell.board[6][1] = 'PAWN';
  t.match(decodeError(badCell), { field: 'body/state/board/6/1' });

  const shortRow = clone(initial);
  shortRow.board[3] = shortRow.board[3].slice(0, 5);
  t.match(decodeError(shortRow), { field: 'body/state/board/3' });

  t.match(decodeError({ ...initial, turn: 'GREEN' }), { field: 'body/state/turn' });
  t.match(decodeError({ ...initial, turn: 'WHITEWIN' }), { field: 'body/state/turn', message: /not on an edge/ });
  t.match(decodeError({ ...initial, turn: 'BLACKWIN' }), { field: 'body/state/turn', message: /not captured/ });
  t.match(decodeError({ ...initial, more: 1 }), { field: 'body/state/more' });
  t.match(decodeError(null), { field: 'body/state' });

  const nineWhites = clone(initial);
  nineWhites.board[2][2] = 'WHITE';
  t.match(decodeError(nineWhites), { field: 'body/state/board', message: /8 WHITE/ });
});

t.test('finished states decode as terminal', async (t) => {
  for (const v of vectors.positions.filter((p: any) => p.tags.includes('terminal'))) {
    const pos = decodeOk(v.state);
    t.equal(pos.terminal(), v.state.turn === 'DRAW' ? RESULT_DRAW : RESULT_LOSS, `${v.id} ${v.state.turn}`);
    t.same(definition.encodeState(pos), v.state, `${v.id} encodes back verbatim`);
  }
});

t.test('moves: objects and notation decode; errors name the field', async (t) => {
  const pos = decodeOk(initial);
  const a = definition.decodeMove(pos, 'e3-c3', 'body/move');
  const b = definition.decodeMove(pos, { from: 'e3', to: 'c3', turn: 'WHITE' }, 'body/move');
  const c = definition.decodeMove(pos, { notation: 'e3-c3' }, 'body/move');
  t.ok(a.ok && b.ok && c.ok);
  if (a.ok && b.ok && c.ok) {
    t.equal(a.value, b.value);
    t.equal(a.value, c.value);
    t.same(definition.encodeMove(pos, a.value), { from: 'e3', to: 'c3', turn: 'WHITE', notation: 'e3-c3' });
  }
  t.match(definition.decodeMove(pos, 'e3c3', 'body/move'), { ok: false, error: { kind: 'notation', field: 'body/move' } });
  t.match(definition.decodeMove(pos, { from: 'z3', to: 'c3' }, 'body/move'), { ok: false, error: { field: 'body/move/from' } });
  t.match(definition.decodeMove(pos, { from: 'e3', to: 'c3', turn: 'BLACK' }, 'body/move'), {
    ok: false,
    error: { field: 'body/move/turn' },
  });
  t.match(definition.decodeMove(pos, { from: 'e3', to: 'c3', notation: 'e3-d3' }, 'body/move'), {
    ok: false,
    error: { field: 'body/move/notation' },
  });
  t.match(definition.decodeMove(pos, 42, 'body/move'), { ok: false, error: { field: 'body/move' } });
});

t.test('history of moves: replayed legally, errors name body/history/<i>', async (t) => {
  // vectors.json games[0]: c5-c4 a4-a3 c4-c5 a3-a2 c5-c4 a2-a3 ends in a DRAW (repetition).
  const g = vectors.games[0];
  const beforeLast = decodeOk(
    (() => {
      const p = decodeOk(initial);
      for (const m of g.moves.slice(0, 5)) {
        const code = definition.decodeMove(p, m, 'x');
        if (code.ok) p.makeMove(code.value);
      }
      return definition.encodeState(p);
    })(),
    g.moves.slice(0, 5),
  );
  t.equal(beforeLast.terminal(), NOT_TERMINAL, 'not over after 5 plies');
  const move = definition.decodeMove(beforeLast, 'a2-a3', 'body/move');
  t.ok(move.ok);
  if (move.ok) beforeLast.makeMove(move.value);
  t.equal(beforeLast.terminal(), RESULT_DRAW, 'a2-a3 repeats the position after ply 2 (games[0].result DRAW)');

  const illegal = decodeError(initial, ['c5-c4', 'c4-c3']);
  t.match(illegal, { kind: 'history', field: 'body/history/1', message: /not a legal move/ });
  const malformed = decodeError(initial, ['c5-c4', 'xx']);
  t.match(malformed, { kind: 'history', field: 'body/history/1' });
  const mixed = decodeError(initial, ['c5-c4', initial]);
  t.match(mixed, { kind: 'history', field: 'body/history/1', message: /one kind/ });
  const elsewhere = decodeError(initial, ['c5-c4', 'a4-a3']);
  t.match(elsewhere, { kind: 'history', field: 'body/history', message: /differs from body\/state/ });
  const afterEnd = decodeError(g.finalState, [...g.moves, 'c4-c5']);
  t.match(afterEnd, { kind: 'history', field: 'body/history/6', message: /already over/ });
});

t.test('history of states: consecutive states must follow by legal moves', async (t) => {
  const states: unknown[] = [initial];
  const p = decodeOk(initial);
  for (const m of ['c5-c4', 'a4-a3', 'c4-c5', 'a3-a2', 'c5-c4']) {
    const code = definition.decodeMove(p, m, 'x');
    if (code.ok) p.makeMove(code.value);
    states.push(definition.encodeState(p));
  }
  const current = states.pop();
  const pos = decodeOk(current, states);
  t.equal(pos.terminal(), NOT_TERMINAL);
  const code = definition.decodeMove(pos, 'a2-a3', 'x');
  if (code.ok) pos.makeMove(code.value);
  t.equal(pos.terminal(), RESULT_DRAW, 'the repetition is seen through a state history');
  // The request state repeated as the last history item is ignored.
  t.equal(decodeOk(current, [...states, current]).terminal(), NOT_TERMINAL);
  const gap = [...states];
  gap.splice(2, 1);
  t.match(decodeError(current, gap), { kind: 'history', field: 'body/history/2', message: /no legal move/ });
  const badItem = clone(states) as any[];
  badItem[1].board[0][0] = 'KING';
  t.match(decodeError(current, badItem), { kind: 'history', field: 'body/history/1/board' });
});

t.test('without history the state itself is in the record (unless initial)', async (t) => {
  // After c5-c4 a4-a3 the state S is sent alone; c4-c5 a3-a4 c5-c4 a4-a3 comes back to S: draw.
  const p = decodeOk(initial);
  for (const m of ['c5-c4', 'a4-a3']) {
    const code = definition.decodeMove(p, m, 'x');
    if (code.ok) p.makeMove(code.value);
  }
  const s = decodeOk(definition.encodeState(p));
  const seq = ['c4-c5', 'a3-a4', 'c5-c4', 'a4-a3'];
  for (const [i, m] of seq.entries()) {
    t.equal(s.terminal(), NOT_TERMINAL, `ply ${i}`);
    const code = definition.decodeMove(s, m, 'x');
    if (code.ok) s.makeMove(code.value);
  }
  t.equal(s.terminal(), RESULT_DRAW);
  // From the initial position, coming back to it after 4 plies is not a draw (RULES.md: the
  // initial position is not in the record), but the 5th ply repeats ply 1.
  const i0 = decodeOk(initial);
  for (const m of ['c5-c4', 'a4-a3', 'c4-c5', 'a3-a4']) {
    const code = definition.decodeMove(i0, m, 'x');
    if (code.ok) i0.makeMove(code.value);
  }
  t.equal(i0.terminal(), NOT_TERMINAL, 'initial position again: not a draw');
  const code = definition.decodeMove(i0, 'c5-c4', 'x');
  if (code.ok) i0.makeMove(code.value);
  t.equal(i0.terminal(), RESULT_DRAW, 'ply 5 repeats ply 1');
});

t.test('snapshot/restore keeps board, side and the repetition record', async (t) => {
  const p = decodeOk(initial, ['c5-c4', 'a4-a3', 'c4-c5', 'a3-a2', 'c5-c4'].slice(0, 0));
  for (const m of ['c5-c4', 'a4-a3', 'c4-c5', 'a3-a2', 'c5-c4']) {
    const code = definition.decodeMove(p, m, 'x');
    if (code.ok) p.makeMove(code.value);
  }
  const r = definition.engine.restore(definition.engine.snapshot(p));
  t.same(definition.encodeState(r), definition.encodeState(p));
  t.equal(r.hashLo, p.hashLo);
  t.equal(r.hashHi, p.hashHi);
  const code = definition.decodeMove(r, 'a2-a3', 'x');
  if (code.ok) r.makeMove(code.value);
  t.equal(r.terminal(), RESULT_DRAW, 'the restored record still sees the repetition');
});
