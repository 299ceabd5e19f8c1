/**
 * Line-pattern tables of the K = 5 fast path, computed here at first use (nothing is read from
 * another engine): what a stone placed on an empty cell makes along one line, for each side.
 *
 * A line code holds the ten cells around a cell on one line (offsets -5..-1 and +1..+5), two bits
 * each: 0 empty, 1 black (side 0), 2 white (side 1), 3 off the board. Slot j holds offset j - 5 for
 * j < 5 and offset j - 4 for j >= 5. Ten cells (not eight) because under exactly-five a stone five
 * cells away decides whether a run of five is an overline.
 *
 * Classes, weakest first, of "a stone of side s here, along this line":
 *  FIVE   a run of five (or more, freestyle; exactly five under exactK) through the cell;
 *  FLEX4  two or more empty cells that would each complete such a five through the cell (open four);
 *  BLOCK4 exactly one such cell (a four the opponent can block);
 *  FLEX3  one more stone can make a FLEX4 (an open three), BLOCK3 one more stone makes a BLOCK4;
 *  FLEX2 / BLOCK2 the same one level down; ONE: a five is still possible through the cell; NONE.
 * Each class is derived from the definition by a memoised recursion over "own / empty / blocked"
 * lines (3^10 keys): opponent stones and the board's edge block alike. Tables fill on first use.
 */
import { readFileSync } from 'node:fs';
import type valuesJson from './pattern-values.json';

export const HALF_LINE = 5;
export const LINE_SLOTS = 10;

export const C_NONE = 0;
export const C_ONE = 1;
export const C_BLOCK2 = 2;
export const C_FLEX2 = 3;
export const C_BLOCK3 = 4;
export const C_FLEX3 = 5;
export const C_BLOCK4 = 6;
export const C_FLEX4 = 7;
export const C_FIVE = 8;
export const CLASS_COUNT = 9;

/** Cell flags (per side), from the four directions' classes. */
export const F_FIVE = 1;
/** An open four, or two fours on different lines: two completion cells at once. */
export const F_WIN4 = 2;
/** Any four (BLOCK4 or better on some line), five excluded. */
export const F_FOUR = 4;
/** An open three on some line (FLEX3). */
export const F_THREE = 8;
export const FLAG_BITS = 4;

const TERNARY_SIZE = 3 ** LINE_SLOTS;
const POW3 = new Int32Array(LINE_SLOTS);
for (let j = 0, p = 1; j < LINE_SLOTS; j++, p *= 3) POW3[j] = p;
/** Line index (0..10, centre 5) of slot j. */
const SLOT_INDEX = Int8Array.from({ length: LINE_SLOTS }, (_, j) => (j < HALF_LINE ? j : j + 1));

/** True when the run of own stones (1) through index 5 of `line` is a five under the rule. */
function isFive(line: Int8Array, exact: boolean): boolean {
  let length = 1;
  for (let i = 4; i >= 0 && line[i] === 1; i--) length++;
  for (let i = 6; i <= 10 && line[i] === 1; i++) length++;
  return exact ? length === 5 : length >= 5;
}

/** Not computed yet (a class fits in four bits, so no real entry is 0xff). */
export const UNKNOWN = 0xff;

/**
 * Lazily filled tables of one rule: classes of own-view keys (the centre holding an own stone), and
 * for every 20-bit line code black's class in the low nibble and white's in the high one. Entries
 * are computed on first use (a position meets a few thousand codes), so neither a worker thread nor
 * the pbrain brain pays for the 2^20 codes at start-up.
 */
export class CodeTable {
  readonly exact: boolean;
  readonly table = new Uint8Array(1 << (2 * LINE_SLOTS)).fill(UNKNOWN);
  private readonly lineClasses = new Uint8Array(TERNARY_SIZE).fill(UNKNOWN);
  private halves: HalfLineTables | undefined;

  constructor(exact: boolean) {
    this.exact = exact;
  }

  /**
   * The code table in two small steps (the WebAssembly kernel's form, 13 kB instead of 1 MiB): a side's class depends
   * only on each half line's cells up to its first blocking one, so each half's ten bits map to one of HALF_KEYS
   * such half lines per side, and one table of HALF_KEYS^2 classes gives the class of the pair. Every code's entry is
   * `halfLineEntry` of it (the tests check all 2^20 under both rules).
   */
  halfLines(): HalfLineTables {
    if (this.halves !== undefined) return this.halves;
    const maps = new Uint8Array(4 * HALF_CODES);
    const classes = new Uint8Array(HALF_KEYS * HALF_KEYS);
    // Each half's cells from the centre outward (own 1, empty 0, blocked 2), blocked beyond the first blocking cell.
    const outward = new Int8Array(HALF_LINE);
    const halfKey = (bits: number, own: number, left: boolean): number => {
      let blocked = false;
      let key = 0;
      for (let i = 0; i < HALF_LINE; i++) {
        const v = (bits >>> (2 * (left ? HALF_LINE - 1 - i : i))) & 3;
        if (blocked || (v !== 0 && v !== own)) blocked = true;
        outward[i] = blocked ? 2 : v === 0 ? 0 : 1;
      }
      for (let i = HALF_LINE - 1; i >= 0; i--) key = key * 3 + outward[i];
      return HALF_INDEX[key];
    };
    for (let bits = 0; bits < HALF_CODES; bits++) {
      maps[bits] = halfKey(bits, 1, true);
      maps[HALF_CODES + bits] = halfKey(bits, 1, false);
      maps[2 * HALF_CODES + bits] = halfKey(bits, 2, true);
      maps[3 * HALF_CODES + bits] = halfKey(bits, 2, false);
    }
    for (let left = 0; left < HALF_KEYS; left++) {
      for (let right = 0; right < HALF_KEYS; right++) {
        // The own-view key (slot j: 3^j) of this pair: the left half outward is slots 4..0, the right half slots 5..9.
        let key = 0;
        for (let i = 0; i < HALF_LINE; i++) {
          key += HALF_CELL[left * HALF_LINE + i] * POW3[HALF_LINE - 1 - i];
          key += HALF_CELL[right * HALF_LINE + i] * POW3[HALF_LINE + i];
        }
        classes[left * HALF_KEYS + right] = this.classOf(key);
      }
    }
    this.halves = { maps, classes, outerCellInert: outerCellInert(maps, classes) };
    return this.halves;
  }

  /** The table entry of `code`, computing it when missing. */
  fill(code: number): number {
    let black = 0;
    let white = 0;
    for (let j = 0; j < LINE_SLOTS; j++) {
      const v = (code >>> (2 * j)) & 3;
      black += (v === 0 ? 0 : v === 1 ? 1 : 2) * POW3[j];
      white += (v === 0 ? 0 : v === 2 ? 1 : 2) * POW3[j];
    }
    const entry = this.classOf(black) | (this.classOf(white) << 4);
    this.table[code] = entry;
    return entry;
  }

  /** By the definition in the header, memoised; the recursion adds one own stone a level (at most ten). */
  private classOf(key: number): number {
    const known = this.lineClasses[key];
    if (known !== UNKNOWN) return known;
    const exact = this.exact;
    const line = new Int8Array(11);
    line[HALF_LINE] = 1;
    for (let j = 0, rest = key; j < LINE_SLOTS; j++, rest = (rest / 3) | 0) line[SLOT_INDEX[j]] = rest % 3;
    let result: number;
    if (isFive(line, exact)) {
      result = C_FIVE;
    } else {
      let fives = 0;
      for (let j = 1; j < LINE_SLOTS - 1; j++) {
        const at = SLOT_INDEX[j];
        if (line[at] !== 0) continue;
        line[at] = 1;
        if (isFive(line, exact)) fives++;
        line[at] = 0;
      }
      if (fives >= 2) result = C_FLEX4;
      else if (fives === 1) result = C_BLOCK4;
      else {
        let bestChild = C_NONE;
        for (let j = 1; j < LINE_SLOTS - 1; j++) {
          if (line[SLOT_INDEX[j]] !== 0) continue;
          const child = this.classOf(key + POW3[j]);
          if (child > bestChild) bestChild = child;
        }
        // A line one stone short of a FLEX4 is a FLEX3, of a BLOCK4 a BLOCK3, and so on down to ONE.
        result = bestChild >= C_BLOCK3 ? bestChild - 2 : bestChild >= C_BLOCK2 ? C_ONE : C_NONE;
      }
    }
    this.lineClasses[key] = result;
    return result;
  }
}

/** Ten bits of a half line's five cells; the canonical half lines (own / empty up to the first blocked cell) of a side. */
export const HALF_CODES = 1 << (2 * HALF_LINE);
/** For each ternary outward half line (3^5), its canonical index; the canonical ones' ternary keys and cells. */
const HALF_INDEX = new Uint8Array(3 ** HALF_LINE);
const HALF_KEY_OF: number[] = [];
const HALF_CELL: number[] = [];
/** A ternary outward half line (own 1, empty 0, blocked 2) with every cell past its first blocked one blocked too. */
function canonicalHalf(key: number): { canonical: number; cells: number[] } {
  let blocked = false;
  const cells: number[] = [];
  for (let i = 0, rest = key; i < HALF_LINE; i++, rest = (rest / 3) | 0) {
    if (rest % 3 === 2) blocked = true;
    cells.push(blocked ? 2 : rest % 3);
  }
  let canonical = 0;
  for (let i = HALF_LINE - 1; i >= 0; i--) canonical = canonical * 3 + cells[i];
  return { canonical, cells };
}
for (let key = 0; key < 3 ** HALF_LINE; key++) {
  const { canonical, cells } = canonicalHalf(key);
  if (canonical === key) {
    HALF_KEY_OF.push(key);
    HALF_CELL.push(...cells);
  }
}
for (let key = 0; key < 3 ** HALF_LINE; key++) HALF_INDEX[key] = HALF_KEY_OF.indexOf(canonicalHalf(key).canonical);
/** Canonical half lines of a side: 2^k own/empty patterns before a blocking cell at k = 0..4, and 2^5 unblocked (95). */
export const HALF_KEYS = HALF_KEY_OF.length;

/** A rule's code table in the kernel's form: the four half maps (black left, black right, white left, white right) and the classes. */
export interface HalfLineTables {
  readonly maps: Uint8Array;
  readonly classes: Uint8Array;
  /**
   * No class depends on the outermost cell of either half line (the fifth cell each way): true under freestyle, where
   * a run longer than five still wins, false under exactly five (an overline). A stone then changes no entry five
   * cells away, so a board need not look there (the WebAssembly kernel's place).
   */
  readonly outerCellInert: boolean;
}

/** Whether every pair of half-line keys gives the same class whatever either half's outermost cell holds. */
function outerCellInert(maps: Uint8Array, classes: Uint8Array): boolean {
  for (let m = 0; m < 4; m++) {
    // Maps 0 and 2 are the left halves (outermost cell in bits 0-1), 1 and 3 the right ones (bits 8-9).
    const left = (m & 1) === 0;
    const shift = left ? 0 : 2 * (HALF_LINE - 1);
    for (let bits = 0; bits < HALF_CODES; bits++) {
      const key = maps[m * HALF_CODES + bits];
      for (let v = 0; v < 4; v++) {
        const other = maps[m * HALF_CODES + ((bits & ~(3 << shift)) | (v << shift))];
        if (other === key) continue;
        for (let k = 0; k < HALF_KEYS; k++) {
          const a = left ? classes[key * HALF_KEYS + k] : classes[k * HALF_KEYS + key];
          const b = left ? classes[other * HALF_KEYS + k] : classes[k * HALF_KEYS + other];
          if (a !== b) return false;
        }
      }
    }
  }
  return true;
}

/** A code's entry (black's class | white's << 4) read through the half-line tables. */
export function halfLineEntry(t: HalfLineTables, code: number): number {
  const left = code & (HALF_CODES - 1);
  const right = code >>> (2 * HALF_LINE);
  const black = t.classes[t.maps[left] * HALF_KEYS + t.maps[HALF_CODES + right]];
  const white = t.classes[t.maps[2 * HALF_CODES + left] * HALF_KEYS + t.maps[3 * HALF_CODES + right]];
  return black | (white << 4);
}

const codeTables: (CodeTable | undefined)[] = [undefined, undefined];

/** The (lazily filled) code table of a rule (freestyle or exactly five), shared by every position of the thread. */
export function codeTable(exact: boolean): CodeTable {
  const at = exact ? 1 : 0;
  return (codeTables[at] ??= new CodeTable(exact));
}

/** The table entry of `code` (black's class | white's << 4). */
export function classesOf(table: CodeTable, code: number): number {
  const entry = table.table[code];
  return entry !== UNKNOWN ? entry : table.fill(code);
}

/** The class of one own-view line given as a string of 11 characters ('X' own, '.' empty, 'O' blocked), centre included. */
export function classOfLine(text: string, exact: boolean): number {
  if (text.length !== 11 || text[HALF_LINE] !== 'X') throw new Error('a line is 11 cells with X at the centre');
  let code = 0;
  for (let j = 0; j < LINE_SLOTS; j++) {
    const ch = text[SLOT_INDEX[j]];
    code |= (ch === 'X' ? 1 : ch === 'O' ? 2 : 0) << (2 * j);
  }
  return classesOf(codeTable(exact), code) & 15;
}

/** 9^d: a cell's key is sum over directions d of class_d * 9^d. */
export const POW9 = Int32Array.of(1, 9, 81, 729);
export const CELL_KEYS = CLASS_COUNT ** 4;

/**
 * Values of a stone of one side on an empty cell, per line class (what the cell is worth to that
 * side), the bonuses of a cell's class combinations and the mover's tempo factor: a data file
 * (pattern-values.json, hand-set; tools/gomoku-fit.ts fits candidates). The evaluation sums the
 * values over the empty cells; move ordering reads them per cell.
 */
export interface PatternValues {
  readonly classValues: readonly number[];
  readonly doubleFour: number;
  readonly fourThree: number;
  readonly doubleThree: number;
  readonly tempoQuarters: number;
  /**
   * Optional value of each cell shape (SHAPE_NAMES: the cell's four line classes, strongest first), replacing the
   * class sums and bonuses in the evaluation (tools/gomoku-fit.ts --cells); move ordering reads the policy below.
   */
  readonly cellValues?: Readonly<Record<string, number>>;
  /** Optional move-ordering policy (tools/gomoku-policy.ts), in hint units; without it the quiet hint is the hand-set sums. */
  readonly policy?: PolicyValues;
}

/**
 * A quiet candidate's hint: own[its shape for the mover] + enemy[its shape for the opponent] + far when no stone is in
 * its eight neighbours (a ring-2 candidate) + lastOpponent[its distance bucket from the opponent's last move] +
 * lastOwn[the same from the mover's last move] (lastMoveBucket; a term is left out where that move is not known).
 */
export interface PolicyValues {
  readonly far: number;
  readonly own: Readonly<Record<string, number>>;
  readonly enemy: Readonly<Record<string, number>>;
  readonly lastOpponent?: readonly number[];
  readonly lastOwn?: readonly number[];
  /**
   * Optional term per direction by the line around the cell (lineName: the four cells on each side, from the mover's
   * side), one entry for a line and its reverse; a line not listed adds 0.
   */
  readonly lines?: Readonly<Record<string, number>>;
}

/** Cells of a policy line: the four on each side of the candidate (slots 1 to 8 of its line code). */
export const POLICY_LINE_CELLS = 8;
export const POLICY_LINE_CODES = 1 << (2 * POLICY_LINE_CELLS);

/** The policy line of a cell's line code (stones 1 black, 2 white, 3 off the board). */
export function policyLine(code: number): number {
  return (code >> 2) & (POLICY_LINE_CODES - 1);
}

/** A policy line with black and white exchanged: the line from the other side. */
export function swapLineColours(line: number): number {
  // Each cell's two bits swap: 1 and 2 exchange, 0 and a wall (3) stay.
  return ((line & 0x5555) << 1) | ((line & 0xaaaa) >> 1);
}

/** A policy line read from its other end. */
export function reverseLine(line: number): number {
  let reversed = 0;
  for (let k = 0; k < POLICY_LINE_CELLS; k++) reversed |= ((line >> (2 * k)) & 3) << (2 * (POLICY_LINE_CELLS - 1 - k));
  return reversed;
}

/** The line that names a line and its reverse (the smaller code). */
export function canonicalLine(line: number): number {
  return Math.min(line, reverseLine(line));
}

const LINE_CHARS = '.xo#';

/**
 * A mover's policy line by name: its cells from offset -4 to +4 around the candidate '*', '.' empty, 'x' the mover's
 * stone, 'o' the opponent's, '#' off the board ("..xo*.#" and the like: nine characters).
 */
export function lineName(line: number): string {
  let name = '';
  for (let k = 0; k < POLICY_LINE_CELLS; k++) {
    if (k === POLICY_LINE_CELLS / 2) name += '*';
    name += LINE_CHARS[(line >> (2 * k)) & 3];
  }
  return name;
}

/** lineName's inverse; -1 for a string that names no line. */
export function parseLineName(name: string): number {
  if (name.length !== POLICY_LINE_CELLS + 1 || name[POLICY_LINE_CELLS / 2] !== '*') return -1;
  let line = 0;
  for (let k = 0; k < POLICY_LINE_CELLS; k++) {
    const v = LINE_CHARS.indexOf(name[k < POLICY_LINE_CELLS / 2 ? k : k + 1]);
    if (v < 0) return -1;
    line |= v << (2 * k);
  }
  return line;
}

/** Distance buckets from a last move: Chebyshev distance 1 to 5, then 6 or more. */
export const LAST_MOVE_BUCKETS = 6;
/** The bucket of a last move not known (the first plies of a decoded position): no term. */
export const LAST_MOVE_UNKNOWN = LAST_MOVE_BUCKETS;

/** The bucket of a Chebyshev distance (at least 1: the last move's cell is taken). */
export function lastMoveBucket(distance: number): number {
  return distance >= LAST_MOVE_BUCKETS ? LAST_MOVE_BUCKETS - 1 : distance - 1;
}

/**
 * Cell shapes: the multiset of a cell's four line classes (the directions' order does not matter), 495 of them,
 * numbered in order of first appearance over the cell keys, so shape 0 is "0000" (no line can make five). Named by
 * the classes strongest first, one digit each: "7530" is an open four, an open three and a two-line stone's ONE.
 */
export const CELL_SHAPE = new Int32Array(CELL_KEYS);
export const SHAPE_NAMES: readonly string[] = (() => {
  const names: string[] = [];
  const index = new Map<string, number>();
  for (let key = 0; key < CELL_KEYS; key++) {
    const classes: number[] = [];
    for (let d = 0, rest = key; d < 4; d++, rest = (rest / CLASS_COUNT) | 0) classes.push(rest % CLASS_COUNT);
    const name = classes.sort((a, b) => b - a).join('');
    let shape = index.get(name);
    if (shape === undefined) {
      shape = names.length;
      index.set(name, shape);
      names.push(name);
    }
    CELL_SHAPE[key] = shape;
  }
  return names;
})();
export const SHAPE_COUNT = SHAPE_NAMES.length;

/** The hand-set values (the data file's first version). */
export const HAND_SET_VALUES: PatternValues = {
  classValues: [0, 2, 6, 16, 18, 56, 64, 300, 1200],
  doubleFour: 300,
  fourThree: 200,
  doubleThree: 120,
  tempoQuarters: 5,
};

/** Added to the policy's own term so that a quiet hint stays positive (each term is bounded by it in the file). */
const POLICY_BASE = 1000;

export const PATTERN_VALUES = checkedValues(
  JSON.parse(readFileSync(new URL('./pattern-values.json', import.meta.url), 'utf8')) as typeof valuesJson,
);
/** The evaluation's weight of the mover's sum, in quarters (5: the mover's cells count 5/4). */
export const TEMPO_QUARTERS = PATTERN_VALUES.tempoQuarters;

function checkedValues(values: PatternValues): PatternValues {
  const ints = [...values.classValues, values.doubleFour, values.fourThree, values.doubleThree, values.tempoQuarters];
  if (values.classValues.length !== CLASS_COUNT || !ints.every((v) => Number.isInteger(v) && v >= 0 && v < 100_000)) {
    throw new Error('pattern-values.json: nine class values and non-negative integer bonuses expected');
  }
  const policy = values.policy;
  if (policy !== undefined) {
    const table = (t: Readonly<Record<string, number>>): boolean =>
      Object.keys(t).length === SHAPE_COUNT && SHAPE_NAMES.every((name) => Number.isInteger(t[name]) && Math.abs(t[name]) < POLICY_BASE);
    const small = (v: number): boolean => Number.isInteger(v) && Math.abs(v) < POLICY_BASE;
    const buckets = (t: readonly number[] | undefined): boolean => t === undefined || (t.length === LAST_MOVE_BUCKETS && t.every(small));
    if (!small(policy.far) || !table(policy.own) || !table(policy.enemy) || !buckets(policy.lastOpponent) || !buckets(policy.lastOwn)) {
      throw new Error(
        `pattern-values.json: policy needs an integer far, own and enemy terms per shape (${SHAPE_COUNT}) and optional lastOpponent and lastOwn ` +
          `terms per distance bucket (${LAST_MOVE_BUCKETS}), each |v| < ${POLICY_BASE}`,
      );
    }
    const lineOk = ([name, v]: [string, number]): boolean => {
      const line = parseLineName(name);
      return line >= 0 && canonicalLine(line) === line && small(v);
    };
    if (policy.lines !== undefined && !Object.entries(policy.lines).every(lineOk)) {
      throw new Error(`pattern-values.json: policy lines are named by lineName (the smaller of a line and its reverse), each |v| < ${POLICY_BASE}`);
    }
  }
  const shapes = values.cellValues;
  if (shapes !== undefined) {
    const valid = (name: string): boolean => Number.isInteger(shapes[name]) && Math.abs(shapes[name]) < 100_000;
    if (Object.keys(shapes).length !== SHAPE_COUNT || !SHAPE_NAMES.every(valid) || shapes['0000'] !== 0) {
      throw new Error(`pattern-values.json: cellValues must give an integer (|v| < 100000) for each of the ${SHAPE_COUNT} shapes, 0 for 0000`);
    }
  }
  return values;
}

/** The evaluation's value of a cell key: its shape's value when the file has them, else the class sums and bonuses. */
export function evaluationValueOf(key: number, values: PatternValues): number {
  return values.cellValues !== undefined ? values.cellValues[SHAPE_NAMES[CELL_SHAPE[key]]] : cellValueOf(key, values);
}

/** Value of a cell key (classes of the four directions) under `values`. */
export function cellValueOf(key: number, values: PatternValues): number {
  let fours = 0;
  let threes = 0;
  let value = 0;
  for (let d = 0, rest = key; d < 4; d++, rest = (rest / CLASS_COUNT) | 0) {
    const c = rest % CLASS_COUNT;
    value += values.classValues[c];
    if (c === C_BLOCK4) fours++;
    else if (c === C_FLEX3) threes++;
  }
  if (fours >= 2) value += values.doubleFour;
  else if (fours === 1 && threes > 0) value += values.fourThree;
  else if (threes >= 2) value += values.doubleThree;
  return value;
}

/** Per cell key: flags (F_*) and value. */
export const CELL_FLAGS = new Uint8Array(CELL_KEYS);
export const CELL_VALUE = new Int32Array(CELL_KEYS);
/** Per cell key: the hand-set value, read by the VCT's ordering (and the hint without a policy); the fitted values cost the VCT tactics. */
export const HINT_VALUE = new Int32Array(CELL_KEYS);

/** The quiet hint without a policy: the mover's hand-set value plus 3/4 of the opponent's, by the cell's two keys. */
export function handSetHint(ownKey: number, enemyKey: number): number {
  return HINT_VALUE[ownKey] + ((HINT_VALUE[enemyKey] * 3) >> 2);
}

for (let key = 0; key < CELL_KEYS; key++) {
  let fives = 0;
  let flex4 = 0;
  let fours = 0;
  let threes = 0;
  for (let d = 0, rest = key; d < 4; d++, rest = (rest / CLASS_COUNT) | 0) {
    const c = rest % CLASS_COUNT;
    if (c === C_FIVE) fives++;
    else if (c === C_FLEX4) flex4++;
    else if (c === C_BLOCK4) fours++;
    else if (c === C_FLEX3) threes++;
  }
  let flags = 0;
  if (fives > 0) flags |= F_FIVE;
  if (flex4 + fours > 0) flags |= F_FOUR;
  if (flex4 > 0 || fours >= 2) flags |= F_WIN4;
  if (threes > 0) flags |= F_THREE;
  CELL_FLAGS[key] = flags;
  CELL_VALUE[key] = evaluationValueOf(key, PATTERN_VALUES);
  HINT_VALUE[key] = cellValueOf(key, HAND_SET_VALUES);
}

/**
 * The policy's units a logit: 20, the temperature at which the hand-set hints fit the teacher's moves best (a softmax of
 * 0.05 x hint), so the history table keeps the weight it had against the hint.
 */
export const POLICY_UNITS_PER_LOGIT = 20;
/** Per cell key: the policy's mover and opponent terms (POLICY_BASE in the mover's), and its far term; all 0 without a policy. */
export const POLICY_OWN = new Int32Array(CELL_KEYS);
export const POLICY_ENEMY = new Int32Array(CELL_KEYS);
export const POLICY_FAR = PATTERN_VALUES.policy?.far ?? 0;
export const HAS_POLICY = PATTERN_VALUES.policy !== undefined;
/** Per distance bucket from the opponent's / the mover's last move: the policy's term (LAST_MOVE_UNKNOWN's is 0). */
export const POLICY_LAST_OPPONENT = new Int32Array(LAST_MOVE_BUCKETS + 1);
export const POLICY_LAST_OWN = new Int32Array(LAST_MOVE_BUCKETS + 1);
POLICY_LAST_OPPONENT.set(PATTERN_VALUES.policy?.lastOpponent ?? []);
POLICY_LAST_OWN.set(PATTERN_VALUES.policy?.lastOwn ?? []);
/**
 * Per mover (black at 0, white at POLICY_LINE_CODES) and policy line as on the board: the policy's line term (0
 * without one). Read four times a candidate, so a flat table of small integers.
 */
export const POLICY_LINE = new Int16Array(2 * POLICY_LINE_CODES);
if (PATTERN_VALUES.policy !== undefined) {
  const { own, enemy, lines } = PATTERN_VALUES.policy;
  for (let key = 0; key < CELL_KEYS; key++) {
    POLICY_OWN[key] = POLICY_BASE + own[SHAPE_NAMES[CELL_SHAPE[key]]];
    POLICY_ENEMY[key] = enemy[SHAPE_NAMES[CELL_SHAPE[key]]];
  }
  for (const [name, value] of Object.entries(lines ?? {})) {
    // The name is the line from the mover's side: as on the board when black moves, colours exchanged when white does.
    for (const line of [parseLineName(name), reverseLine(parseLineName(name))]) {
      POLICY_LINE[line] = value;
      POLICY_LINE[POLICY_LINE_CODES + swapLineColours(line)] = value;
    }
  }
}
