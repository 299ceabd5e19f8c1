/**
 * The gomoku move-ordering policy fit (tools/gomoku-policy.ts): the samples of a hand-made game, a known optimum of the
 * softmax fit, the ranking summary, and the shipped policy as the engine reads it.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import {
  C_FLEX2,
  C_ONE,
  CELL_SHAPE,
  HAS_POLICY,
  LAST_MOVE_BUCKETS,
  LAST_MOVE_UNKNOWN,
  POLICY_ENEMY,
  POLICY_FAR,
  POLICY_LAST_OPPONENT,
  POLICY_LAST_OWN,
  POLICY_LINE,
  POLICY_LINE_CODES,
  POLICY_OWN,
  POLICY_UNITS_PER_LOGIT,
  POW9,
  SHAPE_COUNT,
  SHAPE_NAMES,
  canonicalLine,
  lineName,
  parseLineName,
  reverseLine,
  swapLineColours,
} from '../../src/games/mnk/pattern-tables.js';
import {
  FAR,
  LAST_OPPONENT,
  LAST_OWN,
  LINES,
  POLICY_PARAMS,
  type PolicySample,
  fitPolicy,
  policyLoss,
  policySamples,
  policyValues,
  policyWeights,
  rankSummary,
  teacherSides,
} from '../../tools/gomoku-policy.js';
import { fromRoot } from '../support/paths.js';

/** Moves as [column, row]: a one-stone opening, then the teacher (white) answers twice. */
const GAME = {
  size: 15,
  rule: 0,
  black: 'A (node dist/src/adapters/pbrain.js)',
  white: 'B (RAPFI/pbrain-rapfi)',
  opening: [[7, 7]] as [number, number][],
  // White's first reply is two cells from the only stone (a far move), its second next to a stone.
  moves: [[7, 7], [9, 9], [0, 0], [8, 9]] as [number, number][],
  winner: null,
};

t.test('samples: the teacher\'s quiet moves after the opening, over the empty cells within two of a stone', async (t) => {
  t.equal(teacherSides(GAME, 'rapfi'), 2, 'white');
  t.equal(teacherSides(GAME, 'RAPFI'), 2, 'names compare without case');
  t.equal(teacherSides(GAME, 'node'), 1, 'black');
  t.equal(teacherSides(GAME, 'embryo'), 0);
  t.equal(teacherSides({ ...GAME, black: 'A (RAPFI/pbrain-rapfi)' }, 'rapfi'), 3, 'both colours in the teacher\'s games against itself');
  t.same(policySamples(GAME, 'embryo'), [], 'no teacher: no samples');
  const [first, second, ...rest] = policySamples(GAME, 'rapfi');
  t.equal(rest.length, 0, 'two white moves, both quiet');
  // Both colours the teacher: black's (0, 0) at ply 2 is three cells from every stone, so no candidate: the same two.
  t.equal(policySamples({ ...GAME, black: 'A (RAPFI/pbrain-rapfi)' }, 'rapfi').length, 2);
  // Ply 1: one stone at (7, 7): its 24 neighbours within two cells are the candidates, 8 of them in ring 1.
  t.equal(first.own.length, 24);
  t.equal([...first.far].filter((f) => f === 1).length, 16);
  t.equal(first.far[first.played], 1, '(9, 9) is two cells away');
  t.equal(first.lastOpponent[first.played], 1, 'two cells from the opponent\'s last move (7, 7): bucket 1');
  // Its lines from white's side: black's (7, 7) two cells back on the diagonal (direction 2), the others empty; a line
  // is named by the smaller code of it and its reverse ('..o.*....' rather than '....*.o..').
  t.same([...first.lines.slice(first.played * 4, first.played * 4 + 4)], [0, 0, parseLineName('..o.*....'), 0]);
  t.ok(first.lastOwn.every((b) => b === LAST_MOVE_UNKNOWN), 'white has no earlier move');
  // Ply 3: stones at (7, 7), (9, 9) and (0, 0); (8, 9) is next to (9, 9). (0, 0) adds its 8 cells within two
  // ((0, 1), (0, 2), (1, 0) ... (2, 2)); (9, 9)'s 24 overlap (7, 7)'s in the 3x3 block (7..9, 7..9) but for the two
  // stones: 24 + 24 - 7 - 2 = 39, plus 8.
  t.equal(second.own.length, 47);
  t.equal(second.far[second.played], 0);
  t.equal(second.lastOpponent[second.played], LAST_MOVE_BUCKETS - 1, 'nine cells from black\'s (0, 0): 6 or more');
  t.equal(second.lastOwn[second.played], 0, 'next to white\'s own (9, 9)');
  t.same([...second.lines.slice(second.played * 4, second.played * 4 + 4)], [parseLineName('...x*....'), 0, 0, 0], 'its own (9, 9) on the row');
  // Every line through (8, 9) fits a five (ONE at least); white's (9, 9) beside it on its row makes that line a two
  // for white, and no black stone is on its lines ((7, 7) is a knight's move away).
  t.equal(SHAPE_NAMES[second.own[second.played]], `${C_FLEX2}111`);
  t.equal(SHAPE_NAMES[second.enemy[second.played]], '1111');
  // Hand-set hints: the quiet sums of the engine before the policy.
  t.ok(second.hand.every((h) => h >= 0));
});

t.test('fit: one shape played 3 times in 4 against another, the far term, the ranking', async (t) => {
  // Two candidates each: own shape 1 (enemy 0) against own shape 2 (enemy 0); the first is played 3 times of 4.
  const sample = (played: number): PolicySample => ({
    own: Int32Array.of(1, 2),
    enemy: Int32Array.of(0, 0),
    far: Uint8Array.of(0, 0),
    lastOpponent: Uint8Array.of(LAST_MOVE_UNKNOWN, LAST_MOVE_UNKNOWN),
    lastOwn: Uint8Array.of(LAST_MOVE_UNKNOWN, LAST_MOVE_UNKNOWN),
    lines: new Int32Array(8),
    hand: Int32Array.of(10, 20),
    played,
  });
  const samples = [sample(0), sample(0), sample(0), sample(1)];
  const zero = new Float64Array(POLICY_PARAMS);
  t.equal(policyLoss(samples, zero), Math.log(2));
  const w = fitPolicy(samples, 1e-9);
  t.ok(Math.abs(w[1] - w[2] - Math.log(3)) < 1e-4, `own[1] - own[2] = ${w[1] - w[2]} is ln 3`);
  t.ok(Math.abs(policyLoss(samples, w) - (-0.75 * Math.log(0.75) - 0.25 * Math.log(0.25))) < 1e-6);
  t.ok(Math.abs(w[SHAPE_COUNT]) < 1e-6, 'enemy[0] is the same in both candidates: the ridge keeps it at 0');
  // A far candidate played 1 time in 4 against a ring-1 one of the same shapes: far = -ln 3.
  const farSample = (played: number): PolicySample => ({
    own: Int32Array.of(1, 1),
    enemy: Int32Array.of(0, 0),
    far: Uint8Array.of(0, 1),
    lastOpponent: Uint8Array.of(LAST_MOVE_UNKNOWN, LAST_MOVE_UNKNOWN),
    lastOwn: Uint8Array.of(LAST_MOVE_UNKNOWN, LAST_MOVE_UNKNOWN),
    lines: new Int32Array(8),
    hand: Int32Array.of(10, 0),
    played,
  });
  const far = fitPolicy([farSample(0), farSample(0), farSample(0), farSample(1)], 1e-9);
  t.ok(Math.abs(far[FAR] + Math.log(3)) < 1e-4, `far = ${far[FAR]} is -ln 3`);
  // The same shapes, one candidate next to the opponent's last move (bucket 0), the other five away (bucket 4) and
  // next to the mover's own (bucket 0 against 2), played 3 times in 4: the two terms' differences sum to ln 3 and,
  // seen only together, split it evenly under the ridge.
  const lastSample = (played: number): PolicySample => ({
    own: Int32Array.of(1, 1),
    enemy: Int32Array.of(0, 0),
    far: Uint8Array.of(0, 0),
    lastOpponent: Uint8Array.of(0, 4),
    lastOwn: Uint8Array.of(0, 2),
    lines: new Int32Array(8),
    hand: Int32Array.of(0, 0),
    played,
  });
  const last = fitPolicy([lastSample(0), lastSample(0), lastSample(0), lastSample(1)], 1e-9);
  const opponentGap = last[LAST_OPPONENT] - last[LAST_OPPONENT + 4];
  const ownGap = last[LAST_OWN] - last[LAST_OWN + 2];
  t.ok(Math.abs(opponentGap + ownGap - Math.log(3)) < 1e-4, `the gaps ${opponentGap} + ${ownGap} sum to ln 3`);
  t.ok(Math.abs(opponentGap - ownGap) < 1e-4, 'and are equal');
  // Alike but for one line of the first candidate ('.x..*....' against the empty line), played 3 times in 4: the two
  // lines' terms differ by ln 3.
  const open = parseLineName('.x..*....');
  const lineSample = (played: number): PolicySample => ({ ...farSample(played), far: Uint8Array.of(0, 0), lines: Int32Array.of(open, 0, 0, 0, 0, 0, 0, 0) });
  const line = fitPolicy([lineSample(0), lineSample(0), lineSample(0), lineSample(1)], 1e-9);
  t.ok(Math.abs(line[LINES + open] - line[LINES] - Math.log(3)) < 1e-4, `lines ${line[LINES + open]} - ${line[LINES]} is ln 3`);
  t.same(Object.keys(policyValues(line).lines ?? {}), ['....*....', '.x..*....'], 'the file lists the lines whose term rounds to something');
  // Rankings: the fitted policy puts the first candidate first in 3 of 4; the hand-set hints (20 > 10) in 1 of 4.
  t.same(rankSummary(samples, w), { positions: 4, first: 0.75, top12: 1, top24: 1 });
  t.same(rankSummary(samples, null), { positions: 4, first: 0.25, top12: 1, top24: 1 });
  t.same(rankSummary([farSample(1)], null), { positions: 1, first: 0, top12: 0, top24: 0 }, 'the hand-set hints never had far cells');
  // In hint units.
  const units = policyValues(w);
  t.equal(units.own[SHAPE_NAMES[1]] - units.own[SHAPE_NAMES[2]], Math.round(w[1] * POLICY_UNITS_PER_LOGIT) - Math.round(w[2] * POLICY_UNITS_PER_LOGIT));
  t.equal(Object.keys(units.enemy).length, SHAPE_COUNT);
  t.equal(units.lastOpponent?.length, LAST_MOVE_BUCKETS);
  t.same(policyValues(last).lastOwn?.slice(0, 3), [last[LAST_OWN], last[LAST_OWN + 1], last[LAST_OWN + 2]].map((v) => Math.round(v * POLICY_UNITS_PER_LOGIT)));
});

t.test('policy lines: names, colours exchanged, reversed', async (t) => {
  const line = parseLineName('x.o#*....');
  t.equal(line, 1 | (2 << 4) | (3 << 6), 'the cells from offset -4: own 1, opponent 2, off the board 3');
  t.equal(lineName(line), 'x.o#*....');
  t.equal(lineName(swapLineColours(line)), 'o.x#*....', 'walls stay');
  t.equal(lineName(reverseLine(line)), '....*#o.x');
  t.equal(canonicalLine(reverseLine(line)), line);
  for (const bad of ['x.o#.....', 'x.o#*...', 'x.o#*...z', 'x.o#*....*']) t.equal(parseLineName(bad), -1, bad);
  t.equal(lineName(POLICY_LINE_CODES - 1), '####*####');
});

t.test('the shipped policy: the engine reads pattern-values.json\'s policy', async (t) => {
  const file = JSON.parse(readFileSync(fromRoot('src/games/mnk/pattern-values.json'), 'utf8')) as {
    policy: {
      far: number;
      own: Record<string, number>;
      enemy: Record<string, number>;
      lastOpponent: number[];
      lastOwn: number[];
      lines: Record<string, number>;
    };
  };
  // Each listed line, for black to move as on the board, read from either end; for white, with colours exchanged.
  const entries = Object.entries(file.policy.lines);
  t.ok(entries.length > 1000, `${entries.length} lines`);
  for (const [name, value] of entries.slice(0, 50)) {
    const line = parseLineName(name);
    t.equal(POLICY_LINE[line], value);
    t.equal(POLICY_LINE[reverseLine(line)], value);
    t.equal(POLICY_LINE[POLICY_LINE_CODES + swapLineColours(line)], value);
  }
  t.equal(POLICY_LINE[parseLineName('x#x#*.o.o')], 0, 'a line no board has (a wall inside it) adds 0');
  t.ok(HAS_POLICY);
  t.equal(POLICY_FAR, file.policy.far);
  t.same([...POLICY_LAST_OPPONENT], [...file.policy.lastOpponent, 0], 'an unknown last move adds nothing');
  t.same([...POLICY_LAST_OWN], [...file.policy.lastOwn, 0]);
  t.ok(file.policy.lastOpponent[0] > file.policy.lastOpponent[LAST_MOVE_BUCKETS - 1], 'Rapfi answers near the last move');
  t.same(policyValues(policyWeights(file.policy)), file.policy, 'policyWeights reads back what policyValues writes');
  t.ok(file.policy.far < 0, 'a far cell ranks below a ring-1 cell of the same shapes');
  // A cell with an open two on one line and ONE on the others; and the empty key.
  for (const key of [C_FLEX2 * POW9[0] + C_ONE * (POW9[1] + POW9[2] + POW9[3]), 0]) {
    const name = SHAPE_NAMES[CELL_SHAPE[key]];
    t.equal(POLICY_OWN[key] - POLICY_OWN[0], file.policy.own[name] - file.policy.own['0000']);
    t.equal(POLICY_ENEMY[key], file.policy.enemy[name]);
  }
});
