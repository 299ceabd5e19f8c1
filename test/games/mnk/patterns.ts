/**
 * The K = 5 pattern fast path (src/games/mnk/pattern-tables.ts, patterns.ts, vcf.ts, pattern-search.ts):
 *  - line classes on hand-checked lines, each expected value derived in its comment from the
 *    definition (FIVE; FLEX4 = two cells completing a five through the centre; BLOCK4 = one; FLEX3 /
 *    BLOCK3 = one more stone makes a FLEX4 / BLOCK4; ...), under freestyle and exactly five;
 *  - the half-line tables the WebAssembly kernel reads codes through give every one of the 2^20 codes the code
 *    table's entry, under both rules;
 *  - a stone only lowers the other side's classes on its lines, and no such fall adds a flag (what removesAll's reading
 *    of the flagged cells alone rests on), over every code and both rules;
 *  - the incremental state (codes, keys, flags, values, sets) equals a position rebuilt from the
 *    board after random make / unmake sequences, on several board shapes and both rules; so do the
 *    lazily kept window counts once rebuilt, and every move's win or not (overlines under exactly five);
 *  - the VCF solver finds known wins (checked by playing the line out) and refuses non-wins;
 *  - the forced move lists: a five blocked, an open three answered only by the cells that stop it.
 */
import t from 'tap';
import { Random } from '../../../src/core/random.js';
import { MnkPosition } from '../../../src/games/mnk/position.js';
import { usePatternKernel } from '../../../src/games/mnk/pattern-kernel.js';
import type { PatternBoard } from '../../../src/games/mnk/patterns.js';
import {
  C_BLOCK2,
  C_BLOCK3,
  C_BLOCK4,
  C_FIVE,
  C_FLEX2,
  C_FLEX3,
  C_FLEX4,
  C_NONE,
  C_ONE,
  CodeTable,
  F_FIVE,
  F_FOUR,
  F_THREE,
  F_WIN4,
  POLICY_ENEMY,
  POLICY_FAR,
  POLICY_LAST_OPPONENT,
  POLICY_LAST_OWN,
  POLICY_LINE,
  POLICY_OWN,
  CELL_FLAGS,
  CELL_KEYS,
  HALF_KEYS,
  POW9,
  classOfLine,
  halfLineEntry,
  lineName,
  parseLineName,
  policyLine,
} from '../../../src/games/mnk/pattern-tables.js';
import { VcfSolver } from '../../../src/games/mnk/vcf.js';
import { LEVEL_FOUR, LEVEL_THREE } from '../../../src/games/mnk/cells.js';
import { NOT_TERMINAL, RESULT_LOSS } from '../../../src/search/score.js';
import { cell } from '../../fixtures/mnk/boards.js';

// Lines are 11 cells, the centre (index 5) the stone being placed; 'X' own, 'O' opponent or edge, '.' empty.
t.test('line classes on hand-checked lines', async (t) => {
  const cases: [string, boolean, number, string][] = [
    ['...XXXXX...', false, C_FIVE, 'five through the centre'],
    ['..XXXXXX...', false, C_FIVE, 'six: a win in freestyle'],
    ['..XXXXXX...', true, C_NONE, 'six under exactly five: no five can ever run through the centre'],
    ['...OXXXXX..', true, C_FIVE, 'exactly five, the opponent stone closing the left end'],
    ['....XXXX...', false, C_FLEX4, '.XXXX. with room both sides: cells 3 and 8 each complete five'],
    ['...OXXXX...', false, C_BLOCK4, 'OXXXX.: only cell 8 completes five'],
    ['.X.XXXX....', false, C_FLEX4, 'cell 2 makes six (wins in freestyle) and cell 7 makes five: two cells'],
    ['.X.XXXX....', true, C_BLOCK4, 'under exactly five cell 2 makes an overline: only cell 7 wins'],
    ['O..XXXX..O.', true, C_FLEX4, 'cells 2 and 7 make exactly five (1 and 8 stay empty)'],
    ['....XXX....', false, C_FLEX3, '..XXX..: a stone on 3 or 7 makes .XXXX. (FLEX4)'],
    ['...OXXX....', false, C_BLOCK3, 'OXXX...: the best next stone (6, 7 or 8) gives a four with one completion cell'],
    ['...X.X.X...', false, C_BLOCK3, 'X.X.X: filling 4 or 6 leaves one gap: a four with one completion'],
    ['.....XX....', false, C_FLEX2, '..XX..: one more stone (4 or 7) makes ..XXX., a FLEX3'],
    ['...OXX.....', false, C_BLOCK2, 'OXX...: one more stone gives OXXX.., a BLOCK3 at best'],
    ['.....X.....', false, C_ONE, 'a lone stone with room: a five is still possible'],
    ['...O.X.O...', false, C_NONE, 'three cells between the two O (4, 5, 6): no five fits'],
  ];
  for (const [line, exact, expected, why] of cases) t.equal(classOfLine(line, exact), expected, `${line} ${exact ? 'exact' : 'free'}: ${why}`);
  t.ok(C_BLOCK2 < C_FLEX2 && C_FLEX3 < C_BLOCK4 && C_FLEX4 < C_FIVE, 'classes ordered weakest first');
});

/** Everything the pattern board maintains, as plain data (sets sorted; occupied cells' keys left out). */
function patternState(pos: MnkPosition): unknown {
  const p = pos.patterns!;
  const sets: number[][] = [];
  for (const s of [0, 1]) {
    for (const flag of [F_FIVE, F_WIN4, F_FOUR, F_THREE]) {
      const items: number[] = [];
      for (let i = 0; i < p.count(s, flag); i++) items.push(p.item(s, flag, i));
      sets.push(items.sort((a, b) => a - b));
    }
  }
  const plain = (a: ArrayLike<number>): number[] => Array.from(a);
  // Keys are kept for empty cells only (an occupied cell's key is rebuilt when its stone leaves).
  const keys = Array.from(p.keys, (key, at) => (pos.cells[at >> 1] === 0 ? key : -1));
  return { codes: plain(p.codes), keys, flags: plain(p.cellFlags), values: plain(p.cellValue), sums: plain(p.valueSum), sets };
}

t.test("half-line tables: every code's entry, both rules", async (t) => {
  // A side's class depends on each half line up to its first blocking cell: 2^k own/empty patterns before a block at
  // k = 0..4 cells, 2^5 without one, 63 in all.
  t.equal(HALF_KEYS, 1 + 2 + 4 + 8 + 16 + 32);
  for (const exact of [false, true]) {
    const table = new CodeTable(exact);
    const halves = table.halfLines();
    let differ = 0;
    for (let code = 0; code < 1 << 20; code++) if (halfLineEntry(halves, code) !== table.fill(code)) differ++;
    t.equal(differ, 0, `all 2^20 codes, exact=${exact}`);
  }
});

// The kernel's place skips the fifth cell each way when the tables say it is inert (pattern-tables.ts outerCellInert).
t.test('the fifth cell each way changes no entry under freestyle, and does under exactly five (an overline)', async (t) => {
  for (const exact of [false, true]) {
    const halves = new CodeTable(exact).halfLines();
    t.equal(halves.outerCellInert, !exact, `outerCellInert, exact=${exact}`);
    let differ = 0;
    for (let code = 0; code < 1 << 20; code++) {
      const entry = halfLineEntry(halves, code);
      for (const shift of [0, 18]) {
        for (let v = 0; v < 4; v++) if (halfLineEntry(halves, (code & ~(3 << shift)) | (v << shift)) !== entry) differ++;
      }
    }
    if (exact) t.ok(differ > 0, `exactly five: ${differ} codes change with a fifth cell`);
    else t.equal(differ, 0, 'freestyle: every code keeps its entry whatever the fifth cells hold');
  }
});

// removesAll leans on this: a stone on a line never gives the other side a flag anywhere on it. Every code (walls
// too), every empty slot, each side's stone there: the other side's class never rises, and none of the class falls
// seen, with any classes in the cell's three other directions, adds a flag to the cell's key.
t.test('a stone only lowers the other side: its classes fall and no flag appears, both rules', async (t) => {
  for (const exact of [false, true]) {
    const table = new CodeTable(exact);
    const falls = new Set<number>();
    let rises = 0;
    for (let code = 0; code < 1 << 20; code++) {
      const entry = table.fill(code);
      for (let slot = 0; slot < 10; slot++) {
        if (((code >>> (2 * slot)) & 3) !== 0) continue;
        for (const s of [0, 1]) {
          const shift = 4 * (1 - s);
          const before = (entry >> shift) & 15;
          const after = (table.fill(code | ((s + 1) << (2 * slot))) >> shift) & 15;
          if (after > before) rises++;
          else if (after < before) falls.add(before * 16 + after);
        }
      }
    }
    t.equal(rises, 0, `exact=${exact}: no class rises`);
    t.ok(falls.size > 10, `exact=${exact}: ${falls.size} kinds of class fall`);
    let appears = 0;
    for (const fall of falls) {
      for (let d = 0; d < 4; d++) {
        for (let key = 0; key < CELL_KEYS; key++) {
          const cls = Math.floor(key / POW9[d]) % 9;
          if (cls !== fall >> 4) continue;
          const fallen = key - ((fall >> 4) - (fall & 15)) * POW9[d];
          if ((CELL_FLAGS[fallen] & ~CELL_FLAGS[key]) !== 0) appears++;
        }
      }
    }
    t.equal(appears, 0, `exact=${exact}: no flag appears with any class fall`);
  }
});

t.test('incremental patterns equal a rebuild after random move sequences', async (t) => {
  const rng = new Random(39);
  for (const [m, n, exact] of [[15, 15, false], [15, 15, true], [7, 11, false], [6, 6, true]] as [number, number, boolean][]) {
    const pos = new MnkPosition(m, n, 5, new Uint8Array(m * n), 0, undefined, exact);
    const played: number[] = [];
    let checks = 0;
    let bad = 0;
    for (let step = 0; step < 300; step++) {
      const undo = played.length > 0 && (rng.below(3) === 0 || played.length >= m * n - 1 || pos.terminal() !== NOT_TERMINAL);
      if (undo) pos.unmakeMove(played.pop()!);
      else {
        let c: number;
        do c = rng.below(m * n);
        while (pos.cells[c] !== 0);
        pos.makeMove(c);
        played.push(c);
      }
      const p = pos.patterns!;
      for (let c = 0; c < m * n; c++) for (let d = 0; d < 4; d++) if (p.codes[c * 4 + d] !== p.recomputedCode(c, d)) bad++;
      if (step % 10 === 0) {
        const rebuilt = new MnkPosition(m, n, 5, Uint8Array.from(pos.cells), pos.side, undefined, exact);
        t.same(patternState(pos), patternState(rebuilt), `${m}x${n} ${exact ? 'exact' : 'free'} after ${played.length} stones`);
        checks++;
      }
    }
    t.equal(bad, 0, `${m}x${n}: every maintained line code equals the one read off the board, after every move`);
    t.ok(checks >= 30);
  }
});

/** The window state the root solver and the full-width lists read (threat sets sorted). */
function windowState(pos: MnkPosition): unknown {
  const sets: number[][] = [];
  for (const s of [0, 1]) {
    for (const level of [LEVEL_FOUR, LEVEL_THREE]) {
      const items: number[] = [];
      for (let i = 0; i < pos.threatCount(s, level); i++) items.push(pos.threatWindow(s, level, i));
      sets.push(items.sort((a, b) => a - b));
    }
  }
  return { counts: Array.from(pos.counts), lineScore: Array.from(pos.lineScore), live: pos.liveWindows, open: Array.from(pos.openWindows), sets };
}

// Random sequences (seeded): the search's make / unmake skip the window state on the pattern path;
// a move's win comes from the pattern flags (a five cell of the mover, under the rule).
t.test('lazy window state: rebuilt on demand equal to a fresh position; wins detected without it', async (t) => {
  const rng = new Random(41);
  for (const [m, n, exact] of [[15, 15, false], [15, 15, true], [7, 11, false]] as [number, number, boolean][]) {
    const pos = new MnkPosition(m, n, 5, new Uint8Array(m * n), 0, undefined, exact);
    const played: number[] = [];
    let wins = 0;
    let terminalMismatch = 0;
    for (let step = 0; step < 240; step++) {
      const undo = played.length > 0 && (rng.below(3) === 0 || pos.terminal() !== NOT_TERMINAL);
      if (undo) pos.unmakeMove(played.pop()!);
      else {
        let c: number;
        do c = rng.below(m * n);
        while (pos.cells[c] !== 0);
        pos.makeMove(c);
        played.push(c);
      }
      const rebuilt = new MnkPosition(m, n, 5, Uint8Array.from(pos.cells), pos.side, undefined, exact);
      if (pos.terminal() !== rebuilt.terminal()) terminalMismatch++;
      if (pos.terminal() === RESULT_LOSS) wins++;
      if (step % 12 === 0) t.same(windowState(pos), windowState(rebuilt), `${m}x${n} ${exact ? 'exact' : 'free'} after ${played.length} stones`);
    }
    t.equal(terminalMismatch, 0, `${m}x${n} ${exact ? 'exact' : 'free'}: every move's win or not agrees with a fresh position's`);
    t.ok(wins > 0, `${m}x${n}: the sequence made some fives (${wins})`);
  }
});

// Overline under exactly five (Gomocup rule 1): X X X X _ X on row 7, X to play the gap makes six, not a win.
t.test('lazy window state: an overline is no win under exactly five, a win in freestyle', async (t) => {
  for (const exact of [false, true]) {
    const pos = new MnkPosition(15, 15, 5, new Uint8Array(225), 0, undefined, exact);
    for (const [x, o] of [[3, 0], [4, 14], [5, 28], [6, 42], [8, 56]]) {
      pos.makeMove(7 * 15 + x);
      pos.makeMove(o);
    }
    pos.makeMove(7 * 15 + 7);
    t.equal(pos.terminal(), exact ? NOT_TERMINAL : RESULT_LOSS, exact ? 'exact: six in a row does not win' : 'freestyle: six in a row wins');
  }
});

t.test('the WebAssembly kernel and the TypeScript board keep the same state, move for move (sets in the same order)', async (t) => {
  // Boards made with the kernel off run patterns.ts's own place/remove; the search reads the same arrays either way.
  const state = (p: PatternBoard): unknown => ({
    codes: Array.from(p.codes),
    keys: Array.from(p.keys),
    flags: Array.from(p.cellFlags),
    values: Array.from(p.cellValue),
    sums: Array.from(p.valueSum),
    sizes: Array.from(p.setSize),
    items: Array.from(p.setItems),
  });
  const rng = new Random(40);
  for (const [m, n, exact] of [[20, 20, false], [15, 15, true], [9, 13, false]] as [number, number, boolean][]) {
    const withKernel = new MnkPosition(m, n, 5, new Uint8Array(m * n), 0, undefined, exact);
    const plain = new MnkPosition(m, n, 5, new Uint8Array(m * n), 0, undefined, exact);
    usePatternKernel(false);
    plain.patterns!.attachKernel();
    usePatternKernel(true);
    const played: number[] = [];
    let differences = 0;
    for (let step = 0; step < 400; step++) {
      // The kernel takes over after 30 moves: the stones placed before are taken back through it too.
      if (step === 30) {
        t.equal(withKernel.patterns!.usesKernel, false, `${m}x${n}: a board that was not searched keeps the TypeScript path`);
        withKernel.patterns!.attachKernel();
        t.same([withKernel.patterns!.usesKernel, plain.patterns!.usesKernel], [true, false], `${m}x${n}: then one board of each kind`);
      }
      const undo = played.length > 0 && (rng.below(3) === 0 || played.length >= m * n - 1);
      if (undo) {
        const cell = played.pop()!;
        withKernel.unmakeMove(cell);
        plain.unmakeMove(cell);
      } else {
        let c: number;
        do c = rng.below(m * n);
        while (plain.cells[c] !== 0);
        withKernel.makeMove(c);
        plain.makeMove(c);
        played.push(c);
      }
      if (JSON.stringify(state(withKernel.patterns!)) !== JSON.stringify(state(plain.patterns!))) differences++;
    }
    t.equal(differences, 0, `${m}x${n} ${exact ? 'exact' : 'free'}: the same codes, keys, flags, values, sums and sets after all 400 moves`);
  }
  const plain = new MnkPosition(15, 15, 5, new Uint8Array(225), 0);
  plain.makeMove(100);
  plain.makeMove(101);
  t.throws(() => plain.patterns!.remove(100, 0), /not the last stone placed/, 'the TypeScript board refuses an unmake out of order too');
});

// removesAll reads the flags a stone would leave without placing it (the defence lists' check of each candidate):
// compared with placing the stone and taking it back, for every empty cell, both sides and every flag.
t.test('removesAll answers as placing the stone would, on both paths and both rules', async (t) => {
  const rng = new Random(43);
  for (const [m, n, exact, kernel] of [[20, 20, false, true], [15, 15, true, true], [11, 13, false, false], [15, 15, true, false]] as const) {
    usePatternKernel(kernel);
    const pos = new MnkPosition(m, n, 5, new Uint8Array(m * n), 0, undefined, exact);
    pos.patterns!.attachKernel();
    usePatternKernel(true);
    const p = pos.patterns!;
    let checks = 0;
    let differences = 0;
    let removed = 0;
    for (let stone = 0; stone < 36; stone++) {
      // Stones near the centre, so lines form: fours, threes and their blocks.
      let c: number;
      do c = (((m >> 1) - 4 + rng.below(9)) * n) + (n >> 1) - 4 + rng.below(9);
      while (pos.cells[c] !== 0);
      pos.makeMove(c);
      if (pos.terminal() !== NOT_TERMINAL) break;
      for (let cell = 0; cell < m * n; cell++) {
        if (pos.cells[cell] !== 0) continue;
        for (const side of [0, 1]) {
          for (const flag of [F_FIVE, F_WIN4, F_FOUR, F_THREE]) {
            const read = p.removesAll(cell, side, flag);
            pos.cells[cell] = side + 1;
            p.place(cell, side);
            const placed = p.count(1 - side, flag) === 0;
            pos.cells[cell] = 0;
            p.remove(cell, side);
            checks++;
            if (read !== placed) differences++;
            if (placed && p.count(1 - side, flag) > 0) removed++;
          }
        }
      }
    }
    t.equal(p.usesKernel, kernel, `${m}x${n}: on the ${kernel ? 'WebAssembly kernel' : 'TypeScript board'}`);
    t.equal(differences, 0, `${m}x${n} ${exact ? 'exact' : 'free'}: the same answer in all ${checks} checks`);
    t.ok(removed > 20, `${m}x${n}: some stones do stop every cell of a flag the other side had (${removed})`);
  }
});

t.test('pattern unmake must take the last stone placed', async (t) => {
  const pos = new MnkPosition(15, 15, 5, new Uint8Array(225), 0);
  pos.patterns!.attachKernel();
  t.ok(pos.patterns!.usesKernel, 'on the WebAssembly kernel');
  pos.makeMove(100);
  pos.makeMove(101);
  t.throws(() => pos.patterns!.remove(100, 0), /not the last stone placed/);
});

t.test('the fast path is on for K = 5 only; other K keep the window engine', async (t) => {
  t.not(new MnkPosition(15, 15, 5, new Uint8Array(225), 0).patterns, null);
  t.equal(new MnkPosition(15, 15, 6, new Uint8Array(225), 0).patterns, null);
  t.equal(new MnkPosition(3, 3, 3, new Uint8Array(9), 0).patterns, null);
});

/** A position from rows of 'X' / 'O' / '.', the side to move given (stone counts are not checked). */
function board(rows: string[], side: number, exact = false): MnkPosition {
  const m = rows.length;
  const n = rows[0].length;
  const cells = new Uint8Array(m * n);
  rows.forEach((r, i) => [...r].forEach((ch, c) => (cells[i * n + c] = ch === 'X' ? 1 : ch === 'O' ? 2 : 0)));
  return new MnkPosition(m, n, 5, cells, side, undefined, exact);
}

/** Plays the VCF line out: every defender reply in it blocks a five cell (anything else loses at once) and the line ends in five. */
function replayVcf(t: Tap.Test, pos: MnkPosition, pv: Int32Array, length: number): void {
  const attacker = pos.side;
  const moves: number[] = [];
  for (let i = 0; i < length; i++) {
    if (i % 2 === 1) t.ok((pos.patterns!.flags(pv[i], attacker) & F_FIVE) !== 0, 'the defender blocks a five cell');
    pos.makeMove(pv[i]);
    moves.push(pv[i]);
  }
  t.equal(pos.terminal(), RESULT_LOSS, 'the line ends in five for the attacker');
  while (moves.length > 0) pos.unmakeMove(moves.pop()!);
}

t.test('VCF: finds known wins, refuses non-wins', async (t) => {
  const vcf = new VcfSolver();
  // X: a broken three on row 7 (7,5 7,6 7,8) and a vertical pair 5,9 6,9. 7,7 makes a FLEX4 at
  // once (.XXXX. with 7,4 and 7,9 empty): a VCF of 2 own moves (the four, then five).
  const flex = board(
    ['...............', '...............', '...............', '...............', '...............',
      '.........X.....', '.........X.....', '.....XX.X......', '...............', '...............',
      '..O.........O..', '...............', '...............', '..O..........O.', '...............'],
    0,
  );
  t.equal(vcf.findWin(flex, 10, 10_000), 2, 'a four with two completion cells: two own moves');
  replayVcf(t, flex, vcf.pv, vcf.pvLength);

  // Two O-capped lines through 7,4: row 7 (O on 7,0, X on 7,1-7,3) and column 4 (O on 3,4, X on
  // 4,4-6,4). 7,4 makes OXXXX. (completion 7,5) and a column four (completion 8,4): a double four,
  // two completion cells on two lines -> a win in 2 own moves.
  const double = board(
    ['...............', '...............', '...............', '....O..........', '....X..........',
      '....X..........', '....X..........', 'OXXX...........', '...............', '..........O....',
      '...............', '.............O.', '.......O.......', '...............', '...............'],
    0,
  );
  t.equal(vcf.findWin(double, 10, 10_000), 2, 'a double four: two own moves');
  replayVcf(t, double, vcf.pv, vcf.pvLength);

  // The same shape under exactly five with an X on 7,6 two cells past the gap: 7,4 would give
  // OXXXX.X in the row -- filling 7,5 makes six, no five -- and a four in the column (8,4 only):
  // one blockable four, after whose block nothing follows. No VCF. In freestyle 7,5 makes six, a
  // win, so 7,4 is a double four: a VCF of two own moves.
  const rows = ['....O', '....X', '....X', '....X', 'OXXX..X'].map((r) => r.padEnd(15, '.'));
  const stones = new Uint8Array(225);
  rows.forEach((r, i) => [...r].forEach((ch, c) => (stones[(i + 3) * 15 + c] = ch === 'X' ? 1 : ch === 'O' ? 2 : 0)));
  const exact = new MnkPosition(15, 15, 5, stones, 0, undefined, true);
  t.equal(vcf.findWin(exact, 10, 10_000), 0, 'exactly five: the row four would be an overline, the column four is blockable');
  t.equal(vcf.stopped, false);
  const free = new MnkPosition(15, 15, 5, stones, 0, undefined, false);
  t.equal(vcf.findWin(free, 10, 10_000), 2, 'freestyle: 7,4 is a double four');
  replayVcf(t, free, vcf.pv, vcf.pvLength);

  // Fours that lead nowhere: X has one capped three; after the four and its block nothing follows.
  const none = board(
    ['...............', '...............', '...............', '...............', '...............',
      '...............', '...............', 'OXXX...........', '...............', '.....O.........',
      '...............', '...............', '...............', '...............', '...............'],
    0,
  );
  t.equal(vcf.findWin(none, 10, 10_000), 0, 'one blockable four: no VCF');
  t.equal(vcf.stopped, false, 'refused by a complete search, not the budget');
});

t.test('forced move lists: a five is blocked; an open three is answered by the cells that stop it', async (t) => {
  // O has an open three on row 7 (7,6 7,7 7,8) with room both sides; X (to move) has no four.
  const three = board(
    ['...............', '...............', '...............', '...............', '...............',
      '...............', '....X..........', '......OOO......', '...X...........', '...............',
      '...............', '............X..', '...............', '...............', '...............'],
    0,
  );
  const buf = new Int32Array(512);
  const count = three.generateSearchMoves(buf, 0);
  const moves = new Set(Array.from(buf.subarray(0, count), (m) => `${Math.floor(m / 15)},${m % 15}`));
  // ...OOO... with room on both sides: O's winning-four cells are 7,5 and 7,9 (each makes .OOOO.).
  // X on 7,5 leaves O 7,9 -> XOOOO. (one completion cell, 7,10): stopped; 7,9 likewise. X on 7,4
  // does not stop it: O's 7,9 still makes .OOOO. (7,5 and 7,10 both complete), nor does 7,10
  // (O's 7,5: 7,4 and 7,9). X has no four to counter with, so the list is exactly 7,5 and 7,9.
  t.same([...moves].sort(), ['7,5', '7,9'], 'exactly the two cells that break the open three');
  for (const move of buf.subarray(0, count)) {
    three.makeMove(move);
    t.equal(three.patterns!.count(1, F_WIN4), 0, 'after each, O has no winning four');
    three.unmakeMove(move);
  }
  t.equal(three.movesTruncated, false, 'a forced list is complete');

  // O to move facing X's four (7,1-7,4 with 7,0 = O): the only move is the completion cell 7,5.
  const four = board(
    ['...............', '...............', '...............', '...............', '...............',
      '...............', '...............', 'OXXXX..........', '.....O.........', '...............',
      '...............', '...............', '...............', '...............', '...............'],
    1,
  );
  t.equal(four.generateSearchMoves(buf, 0), 1);
  t.equal(buf[0], cell(four, 7, 5), 'the block of the five cell');
  t.ok((four.patterns!.flags(cell(four, 7, 5), 0) & F_FIVE) !== 0 && (four.patterns!.flags(cell(four, 7, 5), 1) & F_FOUR) === 0);
});

t.test('the candidates reach two cells from the stones: fours and open threes there, ranked by the policy', async (t) => {
  // X to move: 7,4-7,6 and 3,4 3,5. 7,8 is two cells from 7,6 (no stone among its eight neighbours) and
  // makes XXX.X, a four (7,7 completes it); 3,7 makes .XX.X. on row 3, an open three (3,6 then makes an
  // open four). 0,14 is three cells from every stone: it stays out.
  const pos = board(
    ['...............', '...............', '...............', '....XX.........', '...............',
      '...............', '...............', '....XXX........', '...............', '...............',
      '.........O.....', '...........O...', '...............', '.............O.', '...............'],
    0,
  );
  const p = pos.patterns!;
  t.ok((p.flags(cell(pos, 7, 8), 0) & F_FOUR) !== 0 && pos.nearRing1[cell(pos, 7, 8)] === 0, '7,8: a four two cells out');
  t.ok((p.flags(cell(pos, 3, 7), 0) & F_THREE) !== 0 && pos.nearRing1[cell(pos, 3, 7)] === 0, '3,7: an open three two cells out');
  t.equal(pos.near[cell(pos, 0, 14)], 0);
  // A quiet cell's hint is the policy's: own + enemy terms of its two keys, and the far term two cells out (11,13:
  // O's 11,11 and 13,13 are two away) but not next to a stone (12,12), and a term for each of its four lines.
  const lines = (at: number): string[] => [0, 1, 2, 3].map((d) => lineName(policyLine(p.codes[at * 4 + d])));
  // 11,13 from X's side: its row (O two to the left, the edge two to the right), column, and both diagonals.
  t.same(lines(cell(pos, 11, 13)), ['..o.*.###', '....*.o.#', '....*.###', '###.*...#']);
  for (const [r, c, far] of [[11, 13, POLICY_FAR], [12, 12, 0]]) {
    const at = cell(pos, r, c);
    t.equal(pos.nearRing1[at] === 0, far !== 0);
    const lineTerms = lines(at).reduce((sum, name) => sum + POLICY_LINE[parseLineName(name)], 0);
    t.equal(pos.moveOrderScore(at), POLICY_OWN[p.keys[at * 2]] + POLICY_ENEMY[p.keys[at * 2 + 1]] + far + lineTerms, `${r},${c}: the policy's hint`);
  }
  t.not(POLICY_LINE[parseLineName('..o.*.###')], 0, 'the file has a term for 11,13\'s row');
  // The last-move terms, from the moves the search made: none at the root (the decoded position keeps no earlier
  // move); after X's 12,12, O's 11,12 is next to it (bucket 0); after O's 11,12 too, X's 12,11 is next to both.
  const quiet = cell(pos, 12, 12);
  const reply = cell(pos, 11, 12);
  const third = cell(pos, 12, 11);
  pos.makeMove(quiet);
  const replyHint = pos.moveOrderScore(reply);
  pos.makeMove(reply);
  const thirdHint = pos.moveOrderScore(third);
  pos.unmakeMove(reply);
  pos.unmakeMove(quiet);
  // The same stones decoded afresh, so without the moves made: the hints differ by the terms alone.
  const rows = ['...............', '...............', '...............', '....XX.........', '...............',
    '...............', '...............', '....XXX........', '...............', '...............',
    '.........O.....', '...........O...', '............X..', '.............O.', '...............'];
  const afterX = board(rows, 1);
  const afterO = board(rows.map((row, r) => (r === 11 ? '...........OO..' : row)), 0);
  t.equal(replyHint - afterX.moveOrderScore(reply), POLICY_LAST_OPPONENT[0], 'O next to X\'s last move');
  t.equal(thirdHint - afterO.moveOrderScore(third), POLICY_LAST_OPPONENT[0] + POLICY_LAST_OWN[0], 'X next to both');
  const buf = new Int32Array(512);
  for (const searchRootPly of [0, -2]) {
    // At the root (every candidate) and two plies below it (the list cut to the best few).
    pos.searchRootPly = searchRootPly;
    const moves = Array.from(buf.subarray(0, pos.generateSearchMoves(buf, 0)));
    t.ok(moves.includes(cell(pos, 7, 8)) && moves.includes(cell(pos, 3, 7)), `both in the list (root ply ${searchRootPly})`);
    t.notOk(moves.includes(cell(pos, 0, 14)), 'a cell far from everything is not');
    t.equal(new Set(moves).size, moves.length, 'no cell twice');
  }
  pos.searchRootPly = 0;
});
