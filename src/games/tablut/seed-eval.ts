/**
 * The 'seed' profile: the snAI student engine's heuristics and weights as its write-up describes
 * them (shared/seeds/tablut-snAI.md). snAI searched with the heuristic of its own colour only, so
 * this evaluator scores with the heuristic of the side that was to move when the position was set
 * up (`rootSide`) and hands the value to the search from the side to move's point of view.
 *
 * White: 6 * (6 - king distance to a win square) / 6 + 80 * (4 - black pawns next to the king) / 4
 *        + 100 * whites / 8 + 120 * (16 - blacks) / 16 + 400 * free king lines; two free lines = won.
 * Black: by phase (whites > 6 early, 5..6 mid, <= 4 late), weighted shares of white pawns eaten,
 *        black pawns alive, the king's surrounding, pawns on the rhombus and pawns blocking the
 *        king's lines; plus 2 * catchable whites / whites, plus 10 when the king can be captured.
 * Values are centred on the initial position so that a draw (0) reads as "as good as the start".
 */
import { COL, INITIAL_BOARD, ROW, SIDE_WHITE, SQUARES, parseSquare } from './board.js';
import { blackAroundKing, blackCanCaptureKing, blackNeededAroundKing, capturableWhitePawns } from './features.js';
import { BIT_COUNT_4, openLineMask } from './lines.js';
import { STATUS_ONGOING, TablutPosition, type TablutEvaluator } from './position.js';

const KING_DISTANCE = 6;
const KING_CAPTURE = 80;
const WHITE_ALIVE = 100;
const BLACK_EATEN = 120;
const WIN_PATH = 400;
const NUM_WHITE = 8;
const NUM_BLACK = 16;
/** snAI returned +infinity for two free lines; here a large finite value (the search proves the rest). */
const WHITE_INFINITY = 20_000;

/** Black weights: [whiteEaten, blackAlive, surround, rhombus, blocking] per phase. */
const EARLY = [45, 35, 15, 5, 0];
const MID = [42.5, 32.5, 20, 2.5, 2.5];
const LATE = [40, 30, 25, 0, 5];
const PAWNS_AGGRESSION = 2;
const CAN_CAPTURE_KING = 10;
/** Black's heuristic spans about 0..100; scaled to be comparable with the white one. */
const BLACK_SCALE = 10;

/** snAI's win positions: edge squares two steps from the corners' sides (row, col). */
const WIN_POSITIONS = [
  [0, 1], [0, 2], [0, 6], [0, 7], [1, 0], [1, 8], [2, 0], [2, 8],
  [6, 0], [6, 8], [7, 0], [7, 8], [8, 1], [8, 2], [8, 6], [8, 7],
];
const DISTANCE_TO_WIN = new Uint8Array(SQUARES);
for (let s = 0; s < SQUARES; s++) {
  let best = 99;
  for (const [r, c] of WIN_POSITIONS) best = Math.min(best, Math.abs(ROW[s] - r) + Math.abs(COL[s] - c));
  DISTANCE_TO_WIN[s] = best;
}
const RHOMBUS = new Uint8Array(SQUARES);
for (const name of ['c2', 'g2', 'b3', 'h3', 'b7', 'h7', 'c8', 'g8']) RHOMBUS[parseSquare(name)] = 1;

function whiteHeuristic(pos: TablutPosition): number {
  const king = pos.kingSquare;
  const lines = BIT_COUNT_4[openLineMask(pos, king, -1)];
  if (lines >= 2) return WHITE_INFINITY;
  return (
    (KING_DISTANCE * (6 - DISTANCE_TO_WIN[king])) / 6 +
    (KING_CAPTURE * (4 - blackAroundKing(pos))) / 4 +
    (WHITE_ALIVE * pos.whiteCount) / NUM_WHITE +
    (BLACK_EATEN * (NUM_BLACK - pos.blackCount)) / NUM_BLACK +
    WIN_PATH * lines
  );
}

/** Black pawns standing on the king's row or column: they cut its lines to the edge. */
function blockingPawns(pos: TablutPosition): number {
  const kr = ROW[pos.kingSquare];
  const kc = COL[pos.kingSquare];
  let count = 0;
  for (let i = 0; i < pos.blackCount; i++) {
    const s = pos.blackPawns[i];
    if (ROW[s] === kr || COL[s] === kc) count++;
  }
  return count;
}

function blackHeuristic(pos: TablutPosition): number {
  const whites = pos.whiteCount;
  const weights = whites > 6 ? EARLY : whites > 4 ? MID : LATE;
  const whiteEaten = (NUM_WHITE - whites) / NUM_WHITE;
  const blackAlive = pos.blackCount / NUM_BLACK;
  const surround = Math.min(1, blackAroundKing(pos) / blackNeededAroundKing(pos.kingSquare));
  let rhombus = 0;
  for (let i = 0; i < pos.blackCount; i++) rhombus += RHOMBUS[pos.blackPawns[i]];
  let value =
    whiteEaten * weights[0] +
    blackAlive * weights[1] +
    surround * weights[2] +
    (rhombus / 8) * weights[3] +
    blockingPawns(pos) * weights[4];
  const catches = capturableWhitePawns(pos);
  if (catches > 0 && whites > 0) value += (catches / whites) * PAWNS_AGGRESSION;
  if (pos.side !== SIDE_WHITE && blackCanCaptureKing(pos)) value += CAN_CAPTURE_KING;
  return value * BLACK_SCALE;
}

/** Heuristic values at the initial position, so that 0 (a draw) means "as good as the start". */
const initial = new TablutPosition(1);
initial.load(INITIAL_BOARD, SIDE_WHITE, STATUS_ONGOING);
const INITIAL_WHITE = whiteHeuristic(initial);
const INITIAL_BLACK = blackHeuristic(initial);

export class SeedEvaluator implements TablutEvaluator {
  evaluate(pos: TablutPosition): number {
    // From White's point of view whichever colour's heuristic is used.
    const white = Math.round(
      pos.rootSide === SIDE_WHITE ? whiteHeuristic(pos) - INITIAL_WHITE : INITIAL_BLACK - blackHeuristic(pos),
    );
    return pos.side === SIDE_WHITE ? white : -white;
  }
}
