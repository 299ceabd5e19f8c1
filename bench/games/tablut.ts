/**
 * Tablut bench: perft(4) from the initial position (quick: perft(3)), then a fixed-depth search from
 * reference positions (the initial one and prefixes of vectors.json games 1, 7 and 9, from
 * the reference set shared/reference/tablut) printing a deterministic node total and nodes/s, and the cost of one
 * evaluate() call on the positions along those prefixes.
 */
import { definition, engine } from '../../src/games/tablut/index.js';
import type { TablutPosition } from '../../src/games/tablut/position.js';
import { perft } from '../../src/search/perft.js';
import { fixedDepthBench } from '../fixed-depth.js';

/** perft.json perft.depthN.nodes. */
const PERFT_EXPECTED = [0, 56, 4408, 248456, 19159224];

/** Move prefixes (vectors.json games[i].moves) leading to the bench positions. */
const POSITIONS: Array<{ name: string; moves: string }> = [
  { name: 'initial', moves: '' },
  { name: 'game1-ply10', moves: 'g5-g2 e8-b8 f5-g5 b5-b3 e5-f5 a6-c6 g2-g3 b3-b1 f5-f3 h5-h6' },
  { name: 'game7-ply16', moves: 'g5-g4 a6-d6 c5-c7 a5-a7 d5-d2 i6-i8 g4-f4 e8-f8 c7-d7 b5-b8 f5-f7 d6-b6 d7-d4 h5-h9 e3-d3 i5-h5' },
  { name: 'game9-ply15', moves: 'e6-h6 a6-a8 f5-f8 d9-b9 g5-g7 a5-a6 f8-f6 i4-i2 f6-f8 e2-a2 g7-h7 h5-h2 f8-f6 a2-b2 f6-f7' },
];

function positionAfter(moves: string): TablutPosition {
  const initial = definition.initialState({});
  if (!initial.ok) throw new Error('initial state');
  const history = moves === '' ? [] : moves.split(' ');
  const start = definition.decodeState(initial.value, undefined);
  if (!start.ok) throw new Error(start.error.message);
  for (const m of history) {
    const code = definition.decodeMove(start.value, m, 'bench');
    if (!code.ok) throw new Error(code.error.message);
    start.value.makeMove(code.value);
  }
  return start.value;
}

export async function run(print: (line: string) => void, opts: { quick: boolean }): Promise<void> {
  const perftDepth = opts.quick ? 3 : 4;
  for (let depth = 1; depth <= perftDepth; depth++) {
    const pos = positionAfter('');
    const started = process.hrtime.bigint();
    const nodes = perft(pos, depth);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const check = nodes === PERFT_EXPECTED[depth] ? 'ok' : `MISMATCH (expected ${PERFT_EXPECTED[depth]})`;
    print(`perft(${depth}) = ${nodes} ${check} in ${ms.toFixed(1)} ms`);
  }

  const searchDepth = opts.quick ? 4 : 6;
  fixedDepthBench(print, definition, POSITIONS.map(({ name, moves }) => ({ name, position: () => positionAfter(moves) })), searchDepth);

  // evaluate() cost (threat quiescence included) on every position along the bench prefixes.
  const repeats = opts.quick ? 20 : 200;
  let evalCount = 0;
  let evalTotalUs = 0;
  let evalWorstUs = 0;
  for (const { moves } of POSITIONS) {
    const names = moves === '' ? [] : moves.split(' ');
    for (let plies = 0; plies <= names.length; plies++) {
      const pos = engine.restore(engine.snapshot(positionAfter(names.slice(0, plies).join(' '))));
      const started = process.hrtime.bigint();
      for (let i = 0; i < repeats; i++) pos.evaluate();
      const us = Number(process.hrtime.bigint() - started) / 1e3 / repeats;
      evalCount++;
      evalTotalUs += us;
      evalWorstUs = Math.max(evalWorstUs, us);
    }
  }
  print(`evaluate(): ${evalCount} positions, mean ${(evalTotalUs / evalCount).toFixed(1)} us, worst ${evalWorstUs.toFixed(1)} us`);
}
