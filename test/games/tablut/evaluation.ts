/**
 * The default evaluation's threat quiescence (threats.ts), chained up to EvalWeights.threatMoves
 * white threats when the engine plays Black and threatMovesAsWhite when it plays White: it must
 * resolve an open line Black cannot block, and add nothing when White has no threat to play.
 *
 * Sources of the expected numbers: the position is built here by hand; squares are named column
 * a..i + row 1..9 and a king reaching any edge square wins (RULES.md in test/fixtures/tablut, copied
 * from the reference set shared/reference/tablut). WON_SOON is the value threats.ts gives a won threat line.
 */
import t from 'tap';
import {
  BLACK,
  EMPTY,
  INITIAL_BOARD,
  KING,
  SIDE_BLACK,
  SIDE_WHITE,
  SQUARES,
  THRONE,
  THRONE_SQUARE,
  WHITE,
  parseSquare,
} from '../../../src/games/tablut/board.js';
import { DEFAULT_WEIGHTS, DefaultEvaluator } from '../../../src/games/tablut/evaluation.js';
import { MAX_MOVES, STATUS_ONGOING, TablutPosition } from '../../../src/games/tablut/position.js';
import { ThreatQuiescence, WON_SOON } from '../../../src/games/tablut/threats.js';
import { blackCanCaptureKing } from '../../../src/games/tablut/features.js';
import { openLineMask } from '../../../src/games/tablut/lines.js';
import { Random } from '../../../src/core/random.js';

function build(pieces: Record<string, number>, side: number): TablutPosition {
  const cells = new Uint8Array(SQUARES).fill(EMPTY);
  cells[THRONE_SQUARE] = THRONE;
  for (const [name, cell] of Object.entries(pieces)) cells[parseSquare(name)] = cell;
  const pos = new TablutPosition(1);
  pos.load(cells, side, STATUS_ONGOING);
  return pos;
}

// King g3 with white pawns on f3, h3 and g4: its only open line runs down to g1. Black's single
// pawn a9 reaches neither g2 nor g1 (nor can it capture the king), so Black to move cannot stop
// the escape.
const unstoppable = { g3: KING, f3: WHITE, h3: WHITE, g4: WHITE, a9: BLACK };

t.test('threat quiescence: an open line Black cannot block is a won line', async (t) => {
  const pos = build(unstoppable, SIDE_BLACK); // the engine plays Black here (rootSide)
  const withThreats = new DefaultEvaluator({ ...DEFAULT_WEIGHTS, threatMoves: 2 });
  t.equal(withThreats.evaluate(pos), -WON_SOON, 'Black to move: lost, from its point of view');
  const staticOnly = new DefaultEvaluator({ ...DEFAULT_WEIGHTS, threatMoves: 0, parryKingThreats: 0 });
  const value = staticOnly.evaluate(pos);
  t.ok(value > -WON_SOON && value < 0, `the static value only sees a threat (${value})`);
});

t.test('threat quiescence: with no threat to play, White stands pat', async (t) => {
  // Initial position (board.ts INITIAL_BOARD, the RULES.md set-up): the king is walled in by its own
  // pawns, no single pawn move opens one of its lines, so the quiescence adds nothing.
  const pos = new TablutPosition(1);
  pos.load(INITIAL_BOARD, SIDE_WHITE, STATUS_ONGOING);
  const withThreats = new DefaultEvaluator({ ...DEFAULT_WEIGHTS, threatMovesAsWhite: 2 }).evaluate(pos);
  const staticOnly = new DefaultEvaluator({ ...DEFAULT_WEIGHTS, threatMovesAsWhite: 0, parryKingThreats: 0 }).evaluate(pos);
  t.equal(withThreats, staticOnly);
});

t.test('threatMovesAsWhite: the quiescence follows the colour the engine plays', async (t) => {
  const evaluator = new DefaultEvaluator({ ...DEFAULT_WEIGHTS, threatMoves: 2, threatMovesAsWhite: 0, parryKingThreats: 0 });
  const asBlack = build(unstoppable, SIDE_BLACK);
  t.equal(evaluator.evaluate(asBlack), -WON_SOON, 'engine plays Black: the unstoppable line is seen');
  const asWhite = build(unstoppable, SIDE_BLACK);
  asWhite.rootSide = SIDE_WHITE; // the engine searched this position from a White move
  const value = evaluator.evaluate(asWhite);
  t.ok(value > -WON_SOON && value < 0, `engine plays White, quiescence off: static value (${value})`);
  t.equal(new DefaultEvaluator().evaluate(asWhite), -WON_SOON, 'default weights: on for both colours');
});

/** Positions of seeded random games from the initial position (both sides to move). */
function* randomGamePositions(games: number, seed: number): Generator<TablutPosition> {
  const rng = new Random(seed);
  const moves = new Int32Array(MAX_MOVES);
  for (let game = 0; game < games; game++) {
    const pos = new TablutPosition(200);
    pos.load(INITIAL_BOARD, SIDE_WHITE, STATUS_ONGOING);
    for (let ply = 0; ply < 100 && pos.status === STATUS_ONGOING; ply++) {
      yield pos;
      const count = pos.generateMoves(moves, 0);
      if (count === 0) break;
      pos.makeMove(moves[rng.below(count)]);
    }
  }
}

for (const parries of [false, true]) {
  t.test(`threat quiescence (parries ${parries}): the window changes no value inside it and bounds the others`, async (t) => {
    // With an unlimited move budget the quiescence is an exact alpha-beta search, so a window
    // around the value returns it and a window above (below) it returns an upper (lower) bound:
    // the rules of a fail-soft alpha-beta search.
    const evaluator = new DefaultEvaluator();
    const quiescence = new ThreatQuiescence((p) => evaluator.whiteScore(p), 2, Number.MAX_SAFE_INTEGER, parries);
    let checked = 0;
    let searched = 0;
    let wrong = 0;
    for (const pos of randomGamePositions(12, 3)) {
      const value = quiescence.evaluate(pos);
      if (value !== evaluator.whiteScore(pos)) searched++;
      const inside = quiescence.evaluate(pos, value - 50, value + 50);
      const above = quiescence.evaluate(pos, value + 1, value + 100);
      const below = quiescence.evaluate(pos, value - 100, value - 1);
      if (inside !== value || above > value + 1 || below < value - 1) wrong++;
      checked++;
    }
    t.equal(wrong, 0, `${checked} positions, ${searched} of them with threats searched`);
    t.ok(searched > 20, 'enough positions where the threat search changes the value');
  });
}

t.test('threat quiescence: White facing a king capture is lost exactly when no move parries it', async (t) => {
  // Brute force is the reference: every White move is made and Black's capture looked for
  // (blackCanCaptureKing); a move that escapes at once also parries.
  const evaluator = new DefaultEvaluator();
  const quiescence = new ThreatQuiescence((p) => evaluator.whiteScore(p), 2, Number.MAX_SAFE_INTEGER, true);
  const moves = new Int32Array(MAX_MOVES);
  let threatened = 0;
  let lost = 0;
  let wrong = 0;
  for (const pos of randomGamePositions(60, 5)) {
    if (pos.side !== SIDE_WHITE || !blackCanCaptureKing(pos) || openLineMask(pos, pos.kingSquare, -1) !== 0) continue;
    threatened++;
    const count = pos.generateMoves(moves, 0);
    let parried = false;
    for (let i = 0; i < count && !parried; i++) {
      pos.makeMove(moves[i]);
      parried = pos.status !== STATUS_ONGOING || !blackCanCaptureKing(pos);
      pos.unmakeMove(moves[i]);
    }
    if (!parried) lost++;
    const value = quiescence.evaluate(pos);
    if ((value <= -WON_SOON) !== !parried) wrong++;
    const staticValue = evaluator.whiteScore(pos);
    if (!parried && staticValue <= -WON_SOON) wrong++; // the static value alone does not see it
  }
  t.equal(wrong, 0, `${threatened} threatened positions, ${lost} without a parry`);
  t.ok(lost >= 3 && threatened - lost >= 10, 'both cases occur');
});

t.test('static value cache: values read back equal values computed afresh', async (t) => {
  // Evaluators share a cache per weight set; a copy of the weights has its own (cold) one.
  const warm = new DefaultEvaluator();
  const positions: TablutPosition[] = [];
  const firstPass: number[] = [];
  for (const pos of randomGamePositions(10, 7)) {
    firstPass.push(warm.whiteScore(pos));
    const copy = new TablutPosition(1);
    copy.load(pos.board, pos.side, STATUS_ONGOING);
    positions.push(copy);
  }
  const cold = new DefaultEvaluator({ ...DEFAULT_WEIGHTS });
  let mismatches = 0;
  for (let i = positions.length - 1; i >= 0; i--) {
    if (warm.whiteScore(positions[i]) !== firstPass[i] || cold.whiteScore(positions[i]) !== firstPass[i]) mismatches++;
  }
  t.equal(mismatches, 0, `${positions.length} positions`);
});

t.test('escape segments: each half-row or half-column holding a black pawn counts once', async (t) => {
  // Only segmentGuard weighs, so the White value is minus the number of guarded segments. The
  // segments (evaluation.ts) are the halves of rows 2, 3, 7, 8 and of columns b, c, g, h between
  // the edge and the middle; the middle row and column (5, e) belong to none. King on the throne
  // with camps on every line: no open line, and Black to move so no double-threat check.
  const onlySegments = Object.fromEntries(Object.keys(DEFAULT_WEIGHTS).map((k) => [k, 0])) as unknown as typeof DEFAULT_WEIGHTS;
  const evaluator = new DefaultEvaluator({ ...onlySegments, segmentGuard: 1 });
  const cases: Array<[string[], number]> = [
    [[], 0],
    [['b3'], 2], // row 3 (left half) and column b (top half)
    [['b3', 'c2'], 4], // row 2 (left) and column c (top)
    [['b3', 'c2', 'b2'], 4], // row 2 left and column b top are already guarded
    [['e2', 'c5'], 0], // column e and row 5 hold no segment; c5 is in the middle of column c
    [['d8'], 1], // row 8 (left half); column d holds no segment
    [['h7', 'g8', 'b8', 'c7'], 8], // all four bottom corners' rows and columns
  ];
  for (const [squares, guarded] of cases) {
    const pieces: Record<string, number> = { e5: KING };
    for (const name of squares) pieces[name] = BLACK;
    t.equal(evaluator.whiteScore(build(pieces, SIDE_BLACK)), -guarded, squares.join(' ') || 'no black pawn');
  }
});
