/**
 * A cheap reading of region values as "tempo + parity": each canonical value G is summarised as
 * a * up + s * star (a a small integer, s 0 or 1).
 *
 * Hadron values are all infinitesimal (both players can always move in the same cells), and the
 * simplest of them are exactly these: a lone playable cell is *, the seed's "special move" (a move
 * that keeps a neighbour shut for its owner and opens it for the opponent) is an up or a down. The
 * sum of such forms is read off at once (see `moverClass`), whereas summing general canonical forms
 * can blow up: that is what made the old evaluator take seconds.
 *
 * When G is exactly a * up + s * star (|a| <= MAX_EXACT_UPS) the summary is exact; otherwise it is
 * an estimate from the outcome classes of G and G + *. Summaries are memoised per canonical id and
 * dropped when the store is reset.
 */
import { type GameStore, ZERO } from './cgt.js';

const MAX_EXACT_UPS = 3;
/** Encoding of a summary: ((a + UPS_BIAS) << 2) | (s << 1) | exact. */
const UPS_BIAS = 64;
const UNKNOWN = -1;

export class TempoReading {
  private readonly store: GameStore;
  private generation = -1;
  private memo = new Int32Array(1024).fill(UNKNOWN);
  /** Canonical ids of a * up + s * star, index (a + MAX_EXACT_UPS) * 2 + s. */
  private readonly forms = new Int32Array((2 * MAX_EXACT_UPS + 1) * 2);
  private star = 0;

  /** Results of the last `read`. */
  ups = 0;
  starBit = 0;
  exact = false;

  constructor(store: GameStore) {
    this.store = store;
  }

  /** Summarises canonical value g into ups / starBit / exact. */
  read(g: number): void {
    const code = this.code(g);
    this.ups = summaryUps(code);
    this.starBit = summaryStar(code);
    this.exact = summaryExact(code);
  }

  /** The summary of canonical value g as one non-negative int (see summaryUps and friends). */
  code(g: number): number {
    const store = this.store;
    if (this.generation !== store.generation) this.rebuild();
    if (g >= this.memo.length) {
      const grown = new Int32Array(Math.max(g + 1, this.memo.length * 2)).fill(UNKNOWN);
      grown.set(this.memo);
      this.memo = grown;
    }
    let code = this.memo[g];
    if (code === UNKNOWN) {
      code = this.classify(g);
      this.memo[g] = code;
    }
    return code;
  }

  private rebuild(): void {
    const store = this.store;
    this.generation = store.generation;
    this.memo.fill(UNKNOWN);
    let base = store.stackTop;
    store.push(ZERO);
    store.push(ZERO);
    const star = store.make(base, 1, 1);
    base = store.stackTop;
    store.push(ZERO);
    store.push(star);
    const up = store.make(base, 1, 1);
    const down = store.neg(up);
    this.star = star;
    let positive = ZERO;
    let negative = ZERO;
    for (let a = 0; a <= MAX_EXACT_UPS; a++) {
      this.forms[(MAX_EXACT_UPS + a) * 2] = positive;
      this.forms[(MAX_EXACT_UPS + a) * 2 + 1] = store.add(positive, star);
      this.forms[(MAX_EXACT_UPS - a) * 2] = negative;
      this.forms[(MAX_EXACT_UPS - a) * 2 + 1] = store.add(negative, star);
      positive = store.add(positive, up);
      negative = store.add(negative, down);
    }
  }

  private classify(g: number): number {
    // Canonical forms are hash-consed: equal games have equal ids.
    for (let i = 0; i < this.forms.length; i++) {
      if (this.forms[i] === g) return encode((i >> 1) - MAX_EXACT_UPS, i & 1, true);
    }
    const store = this.store;
    const cls = outcomeClass(store, g);
    if (cls === CLASS_P) return encode(0, 0, false);
    const withStar = outcomeClass(store, store.add(g, this.star));
    if (cls === CLASS_L) return encode(withStar === CLASS_L ? 2 : 1, 0, false);
    if (cls === CLASS_R) return encode(withStar === CLASS_R ? -2 : -1, 0, false);
    // Fuzzy: * (G + * = 0), up-star (G + * > 0), down-star, or a bigger nimber-like game.
    if (withStar === CLASS_L) return encode(1, 1, false);
    if (withStar === CLASS_R) return encode(-1, 1, false);
    return encode(0, 1, false);
  }
}

const CLASS_P = 0;
const CLASS_N = 1;
const CLASS_L = 2;
const CLASS_R = 3;

function outcomeClass(store: GameStore, g: number): number {
  const left = store.leftWinsFirst(g);
  const right = store.rightWinsFirst(g);
  if (left) return right ? CLASS_N : CLASS_L;
  return right ? CLASS_R : CLASS_P;
}

export function summaryUps(code: number): number {
  return (code >> 2) - UPS_BIAS;
}

export function summaryStar(code: number): number {
  return (code >> 1) & 1;
}

export function summaryExact(code: number): boolean {
  return (code & 1) === 1;
}

function encode(ups: number, star: number, exact: boolean): number {
  return ((ups + UPS_BIAS) << 2) | (star << 1) | (exact ? 1 : 0);
}

/**
 * Outcome of ups * up + starBit * star for the side to move, `ups` counted for that side:
 * 2 wins whoever starts, 1 wins moving first only, -1 loses moving first only, -2 loses whoever
 * starts. (n up + s star with n >= 2 is positive; up is positive, up + star fuzzy; 0 is a
 * second-player win, star a first-player win.)
 */
export function moverClass(ups: number, starBit: number): number {
  if (ups >= 2) return 2;
  if (ups <= -2) return -2;
  if (starBit === 1) return 1;
  return ups === 1 ? 2 : ups === 0 ? -1 : -2;
}
