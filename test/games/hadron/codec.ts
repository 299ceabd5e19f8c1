/**
 * Hadron client face: schemas, state validation with precise fields, moves and notation, snapshots.
 * Notation as in RULES.md (the reference set shared/reference/hadron): row letter 'A' + row, column c + 1,
 * "E5" = row 4, col 4; vectors.json positions[0] (copied into test/fixtures/hadron) pairs moves
 * [0,7] with "A8" and [7,2] with "H3".
 */
import t from 'tap';
import { Value } from '../../../src/vendor/typebox.js';
import { definition, engine } from '../../../src/games/hadron/index.js';
import type { FieldError } from '../../../src/games/types.js';
import { type Vector, emptyBoard, fixture, legalMoves, positionOf } from '../../fixtures/hadron/boards.js';

function stateError(state: unknown): FieldError {
  const result = definition.decodeState(state, undefined);
  if (result.ok) throw new Error('expected an error');
  return result.error;
}

function moveError(board: string[], move: unknown): FieldError {
  const result = definition.decodeMove(positionOf(board), move, 'body/move');
  if (result.ok) throw new Error('expected an error');
  return result.error;
}

const empty9 = Array.from({ length: 9 }, () => '.........');

t.test('initial state: 9x9 by default, any shape from 2x2 to 9x9', async (t) => {
  t.same(definition.initialState({}), { ok: true, value: { board: empty9, turn: 'W' } });
  t.same(definition.initialState({ rows: 3, cols: 5 }), { ok: true, value: { board: ['.....', '.....', '.....'], turn: 'W' } });
  t.same(definition.initialState({ rows: 4 }), { ok: true, value: { board: ['....', '....', '....', '....'], turn: 'W' } });
  const bad = definition.initialState({ rows: 10 });
  t.same(bad.ok ? null : bad.error.field, 'querystring/rows');
  t.notOk(Value.Check(definition.initialStateQuerySchema!, { rows: 1 }));
  t.notOk(Value.Check(definition.initialStateQuerySchema!, { cols: 10 }));
  t.notOk(Value.Check(definition.initialStateQuerySchema!, { size: 5 }));
});

t.test('schemas: unknown properties, enum values, length bounds, docs', async (t) => {
  t.ok(Value.Check(definition.stateSchema, definition.exampleState));
  t.ok(Value.Check(definition.stateSchema, { board: ['..', '..'], turn: 'W' }));
  t.notOk(Value.Check(definition.stateSchema, { board: empty9, turn: 'W', extra: 1 }), 'unknown property');
  t.notOk(Value.Check(definition.stateSchema, { board: empty9, turn: 'X' }), 'turn enum');
  t.notOk(Value.Check(definition.stateSchema, { board: [...empty9, '.........'], turn: 'W' }), '10 rows');
  t.notOk(Value.Check(definition.stateSchema, { board: ['.'], turn: 'W' }), '1 row');
  t.notOk(Value.Check(definition.stateSchema, { board: ['..........', '..........'], turn: 'W' }), '10 columns');
  t.notOk(Value.Check(definition.stateSchema, { board: ['.x', '..'], turn: 'W' }), 'character');
  t.ok(Value.Check(definition.moveSchema, definition.exampleMove));
  t.ok(Value.Check(definition.moveSchema, { notation: 'E5' }));
  t.notOk(Value.Check(definition.moveSchema, { notation: 'J1' }));
  t.notOk(Value.Check(definition.moveSchema, { row: 9, col: 0 }));
  t.notOk(Value.Check(definition.moveSchema, { row: 1, col: 1, colour: 'W' }));
  for (const schema of [definition.stateSchema, definition.moveSchema, definition.initialStateQuerySchema!]) {
    t.ok(typeof schema.description === 'string' && Array.isArray(schema.examples), 'description and examples');
  }
});

t.test('state validation names the field', async (t) => {
  const rows = stateError({ board: ['.'], turn: 'W' });
  t.same([rows.kind, rows.field], ['position', 'body/state/board']);
  t.match(rows.message, /1 rows; boards have 2 to 9 rows/);
  const ragged = stateError({ board: ['...', '...', '..'], turn: 'W' });
  t.same(ragged.field, 'body/state/board/2');
  t.match(ragged.message, /row 2 has 2 cells but row 0 has 3/);
  const wide = stateError({ board: ['..........', '..........'], turn: 'W' });
  t.same(wide.field, 'body/state/board/0');
  t.match(wide.message, /10 cells; rows have 2 to 9 cells/);
  const char = stateError({ board: ['...', '.x.', '...'], turn: 'W' });
  t.same(char.field, 'body/state/board/1');
  t.match(char.message, /row 1, column 1 \(B2\): 'x'/);
  const turn = stateError({ board: ['...', '.W.', '...'], turn: 'W' });
  t.same(turn.field, 'body/state/turn');
  t.match(turn.message, /White has 1 pieces and Black 0, so it is B's turn/);
  t.same(stateError({ board: ['...', '.B.', '...'], turn: 'W' }).field, 'body/state/board', 'Black cannot lead');
  t.same(stateError({ board: ['W.W', '...', '...'], turn: 'B' }).field, 'body/state/board', 'White two ahead');
  t.same(stateError({ board: ['...', '...'], turn: 'Z' }).field, 'body/state/turn');
  t.same(stateError({ board: 'nope', turn: 'W' }).field, 'body/state/board');
  t.same(stateError(null).field, 'body/state');
  // W at A1 then B at A2: B saw one W neighbour, and no order of placements avoids that.
  const impossible = stateError({ board: ['WB.', '...', '...'], turn: 'W' });
  t.same(impossible.field, 'body/state/board/0');
  t.match(impossible.message, /A1, A2 cannot all have been placed/);
});

t.test('moves: objects and notation, E5 = row 4 col 4', async (t) => {
  const pos = emptyBoard(9, 9);
  t.same(definition.decodeMove(pos, 'E5', 'body/move'), { ok: true, value: 4 * 9 + 4 });
  t.same(definition.decodeMove(pos, 'e5', 'body/move'), { ok: true, value: 40 });
  t.same(definition.decodeMove(pos, { notation: 'A9' }, 'body/move'), { ok: true, value: 8 });
  t.same(definition.decodeMove(pos, { row: 8, col: 0 }, 'body/move'), { ok: true, value: 72 });
  t.same(definition.decodeMove(pos, { row: 4, col: 4, notation: 'E5' }, 'body/move'), { ok: true, value: 40 });
  t.same(definition.encodeMove(pos, 40), { row: 4, col: 4, notation: 'E5' });
  t.same(definition.encodeMove(pos, 80), { row: 8, col: 8, notation: 'I9' });
  // vectors.json positions[0]: moves [0,7] -> "A8", [7,2] -> "H3".
  const v0 = fixture<{ positions: Vector[] }>('vectors.json').positions[0];
  const p0 = positionOf(v0.board, v0.turn);
  t.same(definition.decodeMove(p0, 'A8', 'body/move'), { ok: true, value: 7 });
  t.same(definition.decodeMove(p0, 'H3', 'body/move'), { ok: true, value: 7 * 9 + 2 });
  t.same(definition.encodeMove(p0, 7).notation, v0.notation[0]);
});

t.test('move errors name the field and the reason', async (t) => {
  const small = ['...', '.W.', '...'];
  const outside = moveError(small, 'E5');
  t.same([outside.kind, outside.field], ['notation', 'body/move']);
  t.match(outside.message, /row 4 is outside the 3 x 3 board \(rows A to C\)/);
  const col = moveError(small, { row: 0, col: 3 });
  t.same(col.field, 'body/move/col');
  t.match(col.message, /column 3 is outside the 3 x 3 board/);
  const taken = moveError(small, { row: 1, col: 1 });
  t.same(taken.field, 'body/move');
  t.match(taken.message, /B2 \(row 1, col 1\) is already taken by W/);
  const shut = moveError(small, 'A2');
  t.same(shut.kind, 'move');
  t.match(shut.message, /A2 is not playable: its neighbours hold 1 more White piece than Black/);
  const garbled = moveError(small, 'Z9');
  t.same([garbled.kind, garbled.field], ['notation', 'body/move']);
  const mismatch = moveError(small, { row: 0, col: 0, notation: 'C3' });
  t.same([mismatch.kind, mismatch.field], ['notation', 'body/move/notation']);
  t.same(moveError(small, { col: 1 }).field, 'body/move/row');
  t.same(moveError(small, { row: 1 }).field, 'body/move/col');
  t.same(moveError(small, 42).field, 'body/move');
});

t.test('engine snapshot / restore round trip (both profiles)', async (t) => {
  const v = fixture<{ positions: Vector[] }>('vectors.json').positions[5];
  const pos = positionOf(v.board, v.turn);
  for (const profile of ['default', 'seed']) {
    const restored = engine.restore(engine.snapshot(pos), { profile, seed: 3 });
    t.same(definition.encodeState(restored), { board: v.board, turn: v.turn }, `${profile}: same state`);
    t.same([restored.hashLo, restored.hashHi], [pos.hashLo, pos.hashHi], `${profile}: same hash`);
    t.same(legalMoves(restored), legalMoves(pos), `${profile}: same moves`);
    t.same([restored.rows, restored.cols], [9, 9]);
  }
  const rect = positionOf(['W....', '.....', '....B'], 'W');
  const back = engine.restore(engine.snapshot(rect));
  t.same(definition.encodeState(back), { board: ['W....', '.....', '....B'], turn: 'W' }, '3x5 survives');
  const blank = emptyBoard(3, 5);
  t.notSame([back.hashLo, back.hashHi], [blank.hashLo, blank.hashHi], 'pieces change the hash');
});

t.test('client score scale', async (t) => {
  t.equal(engine.clientScore(1000), 100);
  t.equal(engine.clientScore(-2000), -200);
  t.equal(engine.clientScore(10_000_000), 50_000, 'clamped to EVAL_LIMIT / 10');
  t.equal(engine.provenWinScore, 100_000);
});
