/**
 * Client face: JSON state/move codec errors name the offending field, notation parsing, schema
 * strictness, snapshot/restore. Expected strings follow the documented formats (codec.ts header).
 */
import t from 'tap';
import { Compile } from '../../../src/vendor/typebox.js';
import { PASS_MOVE } from '../../../src/games/othello/board.js';
import { definition, engine } from '../../../src/games/othello/index.js';
import { START_BOARD } from '../../../src/games/othello/codec.js';
import { legalMoves, startPosition } from './helpers.js';

const start = (): string[] => [...START_BOARD];

function stateError(state: unknown): { kind: string; field: string; message: string } {
  const r = definition.decodeState(state, undefined);
  if (r.ok) throw new Error('expected an error');
  return r.error;
}

t.test('initial state is the standard start', async (t) => {
  const s = definition.initialState({});
  t.ok(s.ok);
  if (s.ok) t.same(s.value, { board: ['........', '........', '........', '...WB...', '...BW...', '........', '........', '........'], turn: 'B' });
});

t.test('state errors name the field and the cell', async (t) => {
  const short = start();
  short[3] = '...WB..';
  let e = stateError({ board: short, turn: 'B' });
  t.equal(e.field, 'body/state/board/3');
  t.match(e.message, /8 cells.*found 7/);

  const long = start();
  long[6] = '.........';
  e = stateError({ board: long, turn: 'W' });
  t.equal(e.field, 'body/state/board/6');

  const badChar = start();
  badChar[4] = '...BX...';
  e = stateError({ board: badChar, turn: 'B' });
  t.equal(e.field, 'body/state/board/4');
  t.match(e.message, /e5/, 'names the cell (row 5, column e)');
  t.match(e.message, /"X"/);

  e = stateError({ board: start().slice(0, 7), turn: 'B' });
  t.equal(e.field, 'body/state/board');
  t.match(e.message, /8 rows/);

  e = stateError({ board: start(), turn: 'X' });
  t.equal(e.field, 'body/state/turn');

  e = stateError({ board: start(), turn: 'B', extra: 1 });
  t.equal(e.field, 'body/state/extra');

  const notString = start() as unknown[];
  notString[2] = 12345678;
  e = stateError({ board: notString, turn: 'B' });
  t.equal(e.field, 'body/state/board/2');

  e = stateError('start');
  t.equal(e.field, 'body/state');
  t.equal(e.kind, 'position');
});

t.test('a finished position decodes (the caller reports its status)', async (t) => {
  const full = ['BBBBBBBB', 'BBBBBBBB', 'BBBBBBBB', 'BBBBBBBB', 'WWWWWWWW', 'WWWWWWWW', 'WWWWWWWW', 'WWWWWWWB'];
  const r = definition.decodeState({ board: full, turn: 'W' }, undefined);
  t.ok(r.ok);
});

t.test('schema: strict, bounded, documented', async (t) => {
  const state = Compile(definition.stateSchema);
  t.ok(state.Check({ board: start(), turn: 'B' }));
  t.notOk(state.Check({ board: start(), turn: 'B', extra: true }), 'unknown property');
  t.notOk(state.Check({ board: start(), turn: 'black' }), 'wrong enum value');
  t.notOk(state.Check({ board: [...start(), '........'], turn: 'B' }), 'nine rows');
  const long = start();
  long[0] = '.........';
  t.notOk(state.Check({ board: long, turn: 'B' }), 'row of 9');
  const bad = start();
  bad[0] = '....x...';
  t.notOk(state.Check({ board: bad, turn: 'B' }), 'bad character');
  const move = Compile(definition.moveSchema);
  t.ok(move.Check({ notation: 'd3', row: 2, col: 3 }));
  t.ok(move.Check({ notation: 'pass' }));
  t.notOk(move.Check({ notation: 'd3', row: 8 }));
  t.notOk(move.Check({ notation: 'z9' }));
  t.notOk(move.Check({ notation: 'd3', extra: 1 }));
  for (const schema of [definition.stateSchema, definition.moveSchema] as unknown as Record<string, unknown>[]) {
    t.type(schema.description, 'string');
    t.ok(Array.isArray(schema.examples) && (schema.examples as unknown[]).length > 0);
  }
  t.ok(state.Check(definition.exampleState));
  t.ok(move.Check(definition.exampleMove));
});

t.test('move notation: squares, pass, objects, errors', async (t) => {
  const pos = startPosition();
  const code = (m: unknown): number => {
    const r = definition.decodeMove(pos, m, 'body/move');
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };
  // Square index = row * 8 + col, row 0 = "1", col 0 = "a".
  t.equal(code('a1'), 0);
  t.equal(code('h1'), 7);
  t.equal(code('d3'), 19);
  t.equal(code('a8'), 56);
  t.equal(code('h8'), 63);
  t.equal(code('D3'), 19, 'column letter is case-insensitive');
  t.equal(code('pass'), PASS_MOVE);
  t.equal(code({ notation: 'pass' }), PASS_MOVE);
  t.equal(code({ notation: 'f5', row: 4, col: 5 }), 37);
  t.equal(code({ notation: 'f5' }), 37);

  const fail = (m: unknown) => {
    const r = definition.decodeMove(pos, m, 'body/move');
    if (r.ok) throw new Error('expected an error');
    return r.error;
  };
  t.equal(fail('i1').field, 'body/move');
  t.equal(fail('a9').kind, 'notation');
  t.equal(fail('a0').field, 'body/move');
  t.equal(fail('').field, 'body/move');
  t.equal(fail('d33').field, 'body/move');
  t.equal(fail(42).field, 'body/move');
  t.equal(fail(null).field, 'body/move');
  t.equal(fail({ notation: 'z1' }).field, 'body/move/notation');
  t.equal(fail({ row: 2, col: 3 }).field, 'body/move/notation');
  t.equal(fail({ notation: 'd3', row: 3, col: 3 }).field, 'body/move/row', 'row disagrees with the notation');
  t.equal(fail({ notation: 'd3', row: 2, col: 4 }).field, 'body/move/col');
  t.equal(fail({ notation: 'pass', row: 0 }).field, 'body/move/row');
  t.equal(fail({ notation: 'd3', extra: 1 }).field, 'body/move/extra');

  t.same(definition.encodeMove(pos, 19), { notation: 'd3', row: 2, col: 3 });
  t.same(definition.encodeMove(pos, PASS_MOVE), { notation: 'pass' });
  for (const m of legalMoves(pos)) t.equal(code(definition.encodeMove(pos, m)), m, 'encode/decode roundtrip');
});

t.test('snapshot / restore roundtrip keeps discs, side and hash', async (t) => {
  const pos = startPosition();
  for (const m of [19, 18, 17]) pos.makeMove(m); // d3, c3, b3
  const snap = engine.snapshot(pos);
  const back = engine.restore(snap, { profile: 'default' });
  t.same(definition.encodeState(back), definition.encodeState(pos));
  t.equal(back.side, pos.side);
  t.equal(back.hashLo, pos.hashLo);
  t.equal(back.hashHi, pos.hashHi);
  t.equal(back.empties, pos.empties);
  t.same(legalMoves(back), legalMoves(pos));
  const seed = engine.restore(snap, { profile: 'seed' });
  t.same(definition.encodeState(seed), definition.encodeState(pos));
});

t.test('client score scale: centi-discs to discs', async (t) => {
  t.equal(engine.clientScore(450), 4.5);
  t.equal(engine.clientScore(-1200), -12);
  t.equal(engine.provenWinScore, 2);
});
