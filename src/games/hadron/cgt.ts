/**
 * Short partizan games in canonical form (combinatorial game theory), for sums of Hadron regions.
 *
 * Hadron is a normal-play game (the last player to move wins), and a position is the disjoint sum
 * of its independent regions, so each region has a game value and the winner of the sum follows
 * from the sum of the values. It is partizan, not impartial: White's and Black's options at the same
 * cell differ (the colour placed matters later), so values are general games, not nimbers. They are
 * all "dicotic" (both players can move, or neither: the playable set is colour-blind), i.e.
 * infinitesimals such as *, up, *2, {0|up}.
 *
 * Left = White, Right = Black. Games are integers: 0 is the empty game {|}. Every game made by
 * `make` is reduced to canonical form (dominated options removed, reversible options bypassed) and
 * hash-consed, so two canonical games are equal iff their ids are equal. `make` also keeps one
 * un-reduced copy (the "candidate") per call, used only for comparisons during the reduction.
 *
 * Storage is typed arrays that grow by doubling; nothing here allocates per comparison.
 */

export const ZERO = 0;

/** Open-addressing map from an (a, b) pair of non-negative ints to an int. */
export class PairMap {
  private keysA: Int32Array;
  private keysB: Int32Array;
  private values: Int32Array;
  private mask: number;
  size = 0;

  constructor(initialBits = 12) {
    const capacity = 1 << initialBits;
    this.keysA = new Int32Array(capacity).fill(-1);
    this.keysB = new Int32Array(capacity);
    this.values = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  /** The stored value, or -1. */
  get(a: number, b: number): number {
    let i = slotOf(a, b) & this.mask;
    const keysA = this.keysA;
    for (;;) {
      const k = keysA[i];
      if (k === -1) return -1;
      if (k === a && this.keysB[i] === b) return this.values[i];
      i = (i + 1) & this.mask;
    }
  }

  set(a: number, b: number, value: number): void {
    if ((this.size + 1) * 2 > this.keysA.length) this.grow();
    let i = slotOf(a, b) & this.mask;
    for (;;) {
      const k = this.keysA[i];
      if (k === -1) {
        this.keysA[i] = a;
        this.keysB[i] = b;
        this.values[i] = value;
        this.size++;
        return;
      }
      if (k === a && this.keysB[i] === b) {
        this.values[i] = value;
        return;
      }
      i = (i + 1) & this.mask;
    }
  }

  clear(): void {
    this.keysA.fill(-1);
    this.size = 0;
  }

  private grow(): void {
    const oldA = this.keysA;
    const oldB = this.keysB;
    const oldV = this.values;
    const capacity = oldA.length * 2;
    this.keysA = new Int32Array(capacity).fill(-1);
    this.keysB = new Int32Array(capacity);
    this.values = new Int32Array(capacity);
    this.mask = capacity - 1;
    this.size = 0;
    for (let i = 0; i < oldA.length; i++) if (oldA[i] !== -1) this.set(oldA[i], oldB[i], oldV[i]);
  }
}

function slotOf(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  return Math.imul(h, 0x2c1b3c6d) ^ (h >>> 13);
}

const LE_FALSE = 0;
const LE_TRUE = 1;

export class GameStore {
  /** Per game: where its left / right options start in `options`, and how many. */
  private leftStart: Int32Array = new Int32Array(1024);
  private leftCount: Int32Array = new Int32Array(1024);
  private rightStart: Int32Array = new Int32Array(1024);
  private rightCount: Int32Array = new Int32Array(1024);
  private negation: Int32Array = new Int32Array(1024);
  private optionHash: Int32Array = new Int32Array(1024);
  private options: Int32Array = new Int32Array(4096);
  private optionsUsed = 0;
  /** Games stored (canonical ones and reduction candidates). */
  count = 0;
  /** Canonical games only. */
  canonicalCount = 0;
  /** Bumped by every reset: ids from an earlier generation mean nothing any more. */
  generation = 0;

  /** Hash-consing: open addressing over canonical ids by option-list hash. */
  private internSlots: Int32Array = new Int32Array(2048).fill(-1);

  private readonly leMemo = new PairMap(14);
  private readonly sumMemo = new PairMap(12);

  /** Scratch stack for option lists under construction (nested calls stack up). */
  private stack: Int32Array = new Int32Array(4096);
  stackTop = 0;

  constructor() {
    this.reset();
  }

  reset(): void {
    this.generation++;
    this.count = 0;
    this.canonicalCount = 0;
    this.optionsUsed = 0;
    this.internSlots.fill(-1);
    this.leMemo.clear();
    this.sumMemo.clear();
    this.stackTop = 0;
    const zero = this.allocate(0, 0, 0);
    this.intern(zero);
    this.negation[zero] = zero;
  }

  /** Rough memory use, for callers that reset the store between solves. */
  get footprint(): number {
    return this.count + this.optionsUsed + this.leMemo.size + this.sumMemo.size;
  }

  leftOptionCount(g: number): number {
    return this.leftCount[g];
  }

  rightOptionCount(g: number): number {
    return this.rightCount[g];
  }

  leftOption(g: number, i: number): number {
    return this.options[this.leftStart[g] + i];
  }

  rightOption(g: number, i: number): number {
    return this.options[this.rightStart[g] + i];
  }

  /** G <= H (Right, or nobody, wins H - G moving second... i.e. Left wins H - G moving second). */
  le(g: number, h: number): boolean {
    if (g === h) return true;
    const known = this.leMemo.get(g, h);
    if (known >= 0) return known === LE_TRUE;
    let result = true;
    // G <= H unless some GL >= H or some HR <= G.
    const options = this.options;
    for (let i = this.leftStart[g], end = i + this.leftCount[g]; i < end; i++) {
      if (this.le(h, options[i])) {
        result = false;
        break;
      }
    }
    if (result) {
      for (let i = this.rightStart[h], end = i + this.rightCount[h]; i < end; i++) {
        if (this.le(options[i], g)) {
          result = false;
          break;
        }
      }
    }
    this.leMemo.set(g, h, result ? LE_TRUE : LE_FALSE);
    return result;
  }

  /** True when Left (White) moving first in G wins. */
  leftWinsFirst(g: number): boolean {
    return !this.le(g, ZERO);
  }

  /** True when Right (Black) moving first in G wins. */
  rightWinsFirst(g: number): boolean {
    return !this.le(ZERO, g);
  }

  neg(g: number): number {
    const known = this.negation[g];
    if (known >= 0) return known;
    const base = this.stackTop;
    const nl = this.rightCount[g];
    const nr = this.leftCount[g];
    for (let i = 0; i < nl; i++) this.push(this.neg(this.rightOption(g, i)));
    for (let i = 0; i < nr; i++) this.push(this.neg(this.leftOption(g, i)));
    // The negative of a canonical form is canonical: intern it directly.
    const id = this.internList(base, nl, nr);
    this.stackTop = base;
    this.negation[g] = id;
    this.negation[id] = g;
    return id;
  }

  add(g: number, h: number): number {
    if (g === ZERO) return h;
    if (h === ZERO) return g;
    const a = g < h ? g : h;
    const b = g < h ? h : g;
    const known = this.sumMemo.get(a, b);
    if (known >= 0) return known;
    const base = this.stackTop;
    let nl = 0;
    let nr = 0;
    for (let i = 0; i < this.leftCount[a]; i++, nl++) this.push(this.add(this.leftOption(a, i), b));
    for (let i = 0; i < this.leftCount[b]; i++, nl++) this.push(this.add(a, this.leftOption(b, i)));
    for (let i = 0; i < this.rightCount[a]; i++, nr++) this.push(this.add(this.rightOption(a, i), b));
    for (let i = 0; i < this.rightCount[b]; i++, nr++) this.push(this.add(a, this.rightOption(b, i)));
    const id = this.make(base, nl, nr);
    this.sumMemo.set(a, b, id);
    return id;
  }

  push(g: number): void {
    if (this.stackTop === this.stack.length) this.stack = grown(this.stack, this.stack.length * 2);
    this.stack[this.stackTop++] = g;
  }

  /**
   * The canonical game {L | R} whose options (canonical ids) are on the stack from `base`: nl left
   * options then nr right ones. Pops them.
   */
  make(base: number, nl: number, nr: number): number {
    let candidate = -1;
    for (;;) {
      nl = this.dropDominated(base, nl, true);
      const rBase = base + nl;
      nr = this.dropDominated(rBase, nr, false);
      // Reversibility needs G itself; its value never changes during the reduction, so one
      // un-reduced copy serves every comparison.
      if (candidate < 0 && this.hasReverseOptions(base, nl, nr)) candidate = this.allocateFromStack(base, nl, nr);
      if (candidate < 0) break;
      const bypassed = this.bypassReversible(base, nl, nr, candidate);
      if (bypassed < 0) break;
      // Options changed: the stack now holds the new lists, lengths encoded by bypassReversible.
      nl = this.bypassNl;
      nr = this.bypassNr;
    }
    const id = this.internList(base, nl, nr);
    this.stackTop = base;
    return id;
  }

  private bypassNl = 0;
  private bypassNr = 0;

  /** Removes duplicate and dominated options in place; returns the new count. */
  private dropDominated(start: number, n: number, left: boolean): number {
    const s = this.stack;
    let kept = n;
    for (let i = 0; i < kept; ) {
      const x = s[start + i];
      let dominated = false;
      for (let j = 0; j < kept; j++) {
        if (j === i) continue;
        const y = s[start + j];
        // Left drops x <= y, Right drops x >= y. Equal canonical ids are duplicates.
        if (x === y ? j < i : left ? this.le(x, y) : this.le(y, x)) {
          dominated = true;
          break;
        }
      }
      if (dominated) {
        // Keep the right list (which follows the left one) intact: shift the tail down.
        for (let k = start + i; k < this.stackTop - 1; k++) s[k] = s[k + 1];
        this.stackTop--;
        kept--;
      } else {
        i++;
      }
    }
    return kept;
  }

  private hasReverseOptions(base: number, nl: number, nr: number): boolean {
    const s = this.stack;
    for (let i = 0; i < nl; i++) if (this.rightCount[s[base + i]] > 0) return true;
    for (let i = 0; i < nr; i++) if (this.leftCount[s[base + nl + i]] > 0) return true;
    return false;
  }

  /**
   * Bypasses the first reversible option found: a left option x is reversible through xR when
   * xR <= G, and is then replaced by xR's left options (right options symmetrically). Returns -1
   * when nothing was reversible, else rewrites the stack and sets bypassNl / bypassNr.
   */
  private bypassReversible(base: number, nl: number, nr: number, g: number): number {
    const s = this.stack;
    for (let i = 0; i < nl; i++) {
      const x = s[base + i];
      for (let k = 0; k < this.rightCount[x]; k++) {
        const xr = this.rightOption(x, k);
        if (this.le(xr, g)) {
          this.replaceOption(base, nl, nr, i, xr, true);
          return 1;
        }
      }
    }
    for (let i = 0; i < nr; i++) {
      const y = s[base + nl + i];
      for (let k = 0; k < this.leftCount[y]; k++) {
        const yl = this.leftOption(y, k);
        if (this.le(g, yl)) {
          this.replaceOption(base, nl, nr, nl + i, yl, false);
          return 1;
        }
      }
    }
    return -1;
  }

  /** Replaces stack entry base+at by the left (or right) options of `through`. */
  private replaceOption(base: number, nl: number, nr: number, at: number, through: number, left: boolean): void {
    const count = left ? this.leftCount[through] : this.rightCount[through];
    const start = left ? this.leftStart[through] : this.rightStart[through];
    const total = nl + nr;
    const newTotal = total - 1 + count;
    while (this.stack.length < base + newTotal + 1) this.stack = grown(this.stack, this.stack.length * 2);
    const s = this.stack;
    // Shift the entries after `at` by count - 1.
    if (count !== 1) s.copyWithin(base + at + count, base + at + 1, base + total);
    for (let k = 0; k < count; k++) s[base + at + k] = this.options[start + k];
    this.stackTop = base + newTotal;
    this.bypassNl = left ? nl - 1 + count : nl;
    this.bypassNr = left ? nr : nr - 1 + count;
  }

  private allocateFromStack(base: number, nl: number, nr: number): number {
    return this.allocate(base, nl, nr);
  }

  /** Stores a game with the stack's option lists (not interned). */
  private allocate(base: number, nl: number, nr: number): number {
    if (this.count === this.leftStart.length) {
      const size = this.count * 2;
      this.leftStart = grown(this.leftStart, size);
      this.leftCount = grown(this.leftCount, size);
      this.rightStart = grown(this.rightStart, size);
      this.rightCount = grown(this.rightCount, size);
      this.optionHash = grown(this.optionHash, size);
      const negation = new Int32Array(size).fill(-1);
      negation.set(this.negation.subarray(0, this.count));
      this.negation = negation;
    }
    while (this.optionsUsed + nl + nr > this.options.length) this.options = grown(this.options, this.options.length * 2);
    const id = this.count++;
    this.leftStart[id] = this.optionsUsed;
    this.leftCount[id] = nl;
    for (let i = 0; i < nl; i++) this.options[this.optionsUsed++] = this.stack[base + i];
    this.rightStart[id] = this.optionsUsed;
    this.rightCount[id] = nr;
    for (let i = 0; i < nr; i++) this.options[this.optionsUsed++] = this.stack[base + nl + i];
    this.negation[id] = -1;
    return id;
  }

  /** Sorts the lists, then returns the existing canonical id with these options or a new one. */
  private internList(base: number, nl: number, nr: number): number {
    const s = this.stack;
    sortRange(s, base, base + nl);
    sortRange(s, base + nl, base + nl + nr);
    const h = listHash(s, base, nl, nr);
    const mask = this.internSlots.length - 1;
    let i = h & mask;
    for (;;) {
      const id = this.internSlots[i];
      if (id < 0) break;
      if (this.optionHash[id] === h && this.sameOptions(id, base, nl, nr)) return id;
      i = (i + 1) & mask;
    }
    const id = this.allocate(base, nl, nr);
    this.intern(id);
    return id;
  }

  private intern(id: number): void {
    if ((this.canonicalCount + 1) * 2 > this.internSlots.length) {
      const old = this.internSlots;
      this.internSlots = new Int32Array(old.length * 2).fill(-1);
      for (let i = 0; i < old.length; i++) if (old[i] >= 0) this.insertSlot(old[i]);
    }
    const top = this.stackTop;
    // Hash from the stored lists (they are sorted).
    const nl = this.leftCount[id];
    const nr = this.rightCount[id];
    this.ensureStack(top + nl + nr);
    for (let i = 0; i < nl; i++) this.stack[top + i] = this.leftOption(id, i);
    for (let i = 0; i < nr; i++) this.stack[top + nl + i] = this.rightOption(id, i);
    this.optionHash[id] = listHash(this.stack, top, nl, nr);
    this.insertSlot(id);
    this.canonicalCount++;
  }

  private insertSlot(id: number): void {
    const mask = this.internSlots.length - 1;
    let i = this.optionHash[id] & mask;
    while (this.internSlots[i] >= 0) i = (i + 1) & mask;
    this.internSlots[i] = id;
  }

  private ensureStack(size: number): void {
    while (this.stack.length < size) this.stack = grown(this.stack, this.stack.length * 2);
  }

  private sameOptions(id: number, base: number, nl: number, nr: number): boolean {
    if (this.leftCount[id] !== nl || this.rightCount[id] !== nr) return false;
    const s = this.stack;
    for (let i = 0; i < nl; i++) if (this.leftOption(id, i) !== s[base + i]) return false;
    for (let i = 0; i < nr; i++) if (this.rightOption(id, i) !== s[base + nl + i]) return false;
    return true;
  }

  /** Human-readable form for tests and debugging: "0", "*", "{0|*}"... (allocates). */
  describe(g: number): string {
    if (g === ZERO) return '0';
    const l: string[] = [];
    const r: string[] = [];
    for (let i = 0; i < this.leftCount[g]; i++) l.push(this.describe(this.leftOption(g, i)));
    for (let i = 0; i < this.rightCount[g]; i++) r.push(this.describe(this.rightOption(g, i)));
    const text = `{${l.join(',')}|${r.join(',')}}`;
    return text === '{0|0}' ? '*' : text;
  }
}

function grown(a: Int32Array, size: number): Int32Array {
  const b = new Int32Array(size);
  b.set(a.subarray(0, Math.min(a.length, size)));
  return b;
}

function sortRange(a: Int32Array, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= from && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

function listHash(a: Int32Array, base: number, nl: number, nr: number): number {
  let h = 0x811c9dc5 ^ nl;
  for (let i = 0; i < nl + nr; i++) {
    h = Math.imul(h ^ a[base + i], 0x01000193);
    if (i === nl - 1) h = Math.imul(h ^ 0x5bd1e995, 0x01000193);
  }
  h = Math.imul(h ^ (nr + 0x3c6ef372), 0x01000193);
  return (h ^ (h >>> 16)) & 0x7fffffff;
}
