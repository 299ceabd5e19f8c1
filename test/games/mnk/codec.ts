/** JSON codec of the (M,N,K)-game: schemas, state validation with precise fields, moves. */
import t from 'tap';
import { Value } from '../../../src/vendor/typebox.js';
import { definition, engine } from '../../../src/games/mnk/index.js';
import { RESULT_LOSS } from '../../../src/search/score.js';
import { positionOf } from '../../fixtures/mnk/boards.js';

function stateError(state: unknown): { field: string; message: string; kind: string } {
  const result = definition.decodeState(state, undefined);
  if (result.ok) throw new Error('expected an error');
  return result.error;
}

t.test('initial state: defaults and parameters', async (t) => {
  t.same(definition.initialState({}), {
    ok: true,
    value: { m: 15, n: 15, k: 5, board: Array(15).fill('.'.repeat(15)), turn: 'X' },
  });
  t.same(definition.initialState({ m: 3 }), { ok: true, value: { m: 3, n: 3, k: 3, board: ['...', '...', '...'], turn: 'X' } });
  const wide = definition.initialState({ m: 2, n: 7, k: 4 });
  t.ok(wide.ok && (wide.value as { board: string[] }).board[1] === '.......');
  const bad = definition.initialState({ m: 3, n: 4, k: 5 });
  t.same(bad.ok ? null : bad.error.field, 'querystring/k');
  t.ok(Value.Check(definition.initialStateQuerySchema!, { m: 70, n: 70, k: 10 }));
  t.notOk(Value.Check(definition.initialStateQuerySchema!, { m: 101 }));
  t.notOk(Value.Check(definition.initialStateQuerySchema!, { q: 1 }));
});

t.test('state schema: unknown properties, enum values and lengths', async (t) => {
  const good = { m: 3, n: 3, k: 3, board: ['...', '.X.', '...'], turn: 'O' };
  t.ok(Value.Check(definition.stateSchema, good));
  t.ok(Value.Check(definition.stateSchema, definition.exampleState));
  t.notOk(Value.Check(definition.stateSchema, { ...good, extra: 1 }));
  t.notOk(Value.Check(definition.stateSchema, { ...good, turn: 'x' }));
  t.notOk(Value.Check(definition.stateSchema, { ...good, m: 0 }));
  t.notOk(Value.Check(definition.stateSchema, { ...good, board: ['.'.repeat(101)] }));
  t.notOk(Value.Check(definition.stateSchema, { ...good, board: Array(101).fill('.') }));
  t.ok(Value.Check(definition.moveSchema, definition.exampleMove));
  t.ok(Value.Check(definition.moveSchema, { notation: '1,2' }));
  t.notOk(Value.Check(definition.moveSchema, { row: 1, col: 2, x: 3 }));
  t.ok(definition.stateSchema.description && definition.moveSchema.description);
});

t.test('state validation names the field', async (t) => {
  const base = { m: 3, n: 4, k: 3, board: ['....', '....', '....'], turn: 'X' };
  t.same(stateError({ ...base, k: 5 }).field, 'body/state/k');
  t.same(stateError({ ...base, board: ['....', '....'] }).field, 'body/state/board');
  const short = stateError({ ...base, board: ['....', '....', '...'] });
  t.same(short.field, 'body/state/board/2');
  t.match(short.message, /3 characters but n = 4/);
  const bad = stateError({ ...base, board: ['....', '..x.', '....'] });
  t.same(bad.field, 'body/state/board/1');
  t.match(bad.message, /row 1, column 2: 'x'/);
  t.same(stateError({ ...base, board: ['X...', '....', '....'] }).field, 'body/state/turn', 'X moved: O to move');
  t.same(stateError({ ...base, board: ['O...', '....', '....'] }).field, 'body/state/board', 'O cannot lead');
  t.same(stateError({ ...base, board: ['XX..', '....', '....'], turn: 'O' }).field, 'body/state/board', 'X two ahead');
  t.same(stateError({ ...base, turn: 'Z' }).field, 'body/state/turn');
  t.same(stateError({ ...base, m: 'three' }).field, 'body/state/m');
});

t.test('winners: at most one, the side that moved last, lines through its last stone', async (t) => {
  const both = stateError({ m: 3, n: 4, k: 3, board: ['XXX.', 'OOO.', '....'], turn: 'X' });
  t.same(both, { kind: 'position', field: 'body/state/board', message: both.message });
  t.match(both.message, /both X and O/);
  const moverWon = stateError({ m: 3, n: 4, k: 3, board: ['XXX.', 'OO..', 'O...'], turn: 'X' });
  t.same(moverWon.field, 'body/state/turn');
  // Two X lines that share no stone cannot come from one last move.
  const apart = stateError({ m: 5, n: 5, k: 3, board: ['XXX..', 'OO.OO', '..XXX', 'O....', '.....'], turn: 'O' });
  t.same(apart.field, 'body/state/board');
  t.match(apart.message, /share no stone/);
  // Two lines crossing at the last stone are fine, and the position is over.
  const cross = definition.decodeState({ m: 3, n: 3, k: 3, board: ['XXX', 'OXO', 'XOO'], turn: 'O' }, undefined);
  t.ok(cross.ok);
  if (cross.ok) t.equal(cross.value.terminal(), RESULT_LOSS, 'O to move has lost');
});

t.test('encodeState round-trips', async (t) => {
  const state = { m: 2, n: 5, k: 2, board: ['X.O..', '....X'], turn: 'O' };
  const pos = definition.decodeState(state, undefined);
  t.ok(pos.ok);
  if (pos.ok) t.same(definition.encodeState(pos.value), state);
});

t.test('moves: object, notation string, notation-only object, errors per field', async (t) => {
  const pos = positionOf(['X...', '..O.', '....'], 3, 'X');
  t.same(definition.decodeMove(pos, { row: 2, col: 3 }, 'body/move'), { ok: true, value: 11 });
  t.same(definition.decodeMove(pos, '2,3', 'body/move'), { ok: true, value: 11 });
  t.same(definition.decodeMove(pos, ' 2 , 3 ', 'body/move'), { ok: true, value: 11 });
  t.same(definition.decodeMove(pos, { notation: '0,1' }, 'body/move'), { ok: true, value: 1 });
  t.same(definition.decodeMove(pos, { row: 0, col: 1, notation: '0,1' }, 'body/move'), { ok: true, value: 1 });
  const errorOf = (move: unknown): { field: string; kind: string } => {
    const r = definition.decodeMove(pos, move, 'body/move');
    if (r.ok) throw new Error('expected an error');
    return { field: r.error.field, kind: r.error.kind };
  };
  t.same(errorOf({ row: 0, col: 1, notation: '0,2' }), { field: 'body/move/notation', kind: 'notation' });
  t.same(errorOf({ row: 3, col: 0 }), { field: 'body/move/row', kind: 'move' });
  t.same(errorOf({ row: 0, col: 4 }), { field: 'body/move/col', kind: 'move' });
  t.same(errorOf({ row: 0 }), { field: 'body/move/col', kind: 'move' });
  t.same(errorOf('h8'), { field: 'body/move', kind: 'notation' });
  t.same(errorOf('9,0'), { field: 'body/move', kind: 'notation' });
  t.same(errorOf({ notation: 'a' }), { field: 'body/move/notation', kind: 'notation' });
  t.same(errorOf({ row: 0, col: 0 }), { field: 'body/move', kind: 'move' }, 'occupied cell');
  t.same(errorOf(42), { field: 'body/move', kind: 'move' });
  t.same(errorOf({}), { field: 'body/move', kind: 'move' });
  t.same(definition.encodeMove(pos, 11), { row: 2, col: 3, notation: '2,3' });
});

t.test('engine snapshot and restore keep the position and take a profile', async (t) => {
  const pos = positionOf(['X...', '..O.', '...X'], 3, 'O');
  const snap = engine.snapshot(pos);
  const copy = engine.restore(snap, { profile: 'seed' });
  t.same(definition.encodeState(copy), definition.encodeState(pos));
  t.equal(copy.hashLo, pos.hashLo);
  t.equal(copy.hashHi, pos.hashHi);
  t.equal(copy.profile.name, 'seed');
  t.equal(engine.restore(snap).profile.name, 'default');
  t.equal(engine.restore(snap, { profile: 'nonsense' }).profile.name, 'default');
  t.equal(engine.clientScore(1000), 100, 'a K-1 window is 100 points');
  t.equal(engine.clientScore(-999_999), -50_000, 'clamped to EVAL_LIMIT / 10');
});
