/**
 * Transposition table: one Int32Array of two-slot buckets, so a table is one allocation and a lookup
 * touches one cache line. Slot layout (4 int32):
 *   [0] verification key (hashHi)   [1] move (-1 = none)   [2] score (ply-independent, see toTT)
 *   [3] meta: depth (8 bits) | bound (2 bits) << 8 | exact-subtree flag << 10 | age (6 bits) << 11
 * Replacement: a matching slot is refreshed; otherwise the slot from an older search, else the
 * shallower one, gives way (depth-preferred with aging).
 */
import { PROVEN_THRESHOLD } from './score.js';

export const BOUND_NONE = 0;
export const BOUND_UPPER = 1;
export const BOUND_LOWER = 2;
export const BOUND_EXACT = 3;

const SLOT_INTS = 4;
const BUCKET_INTS = 2 * SLOT_INTS;
const BUCKET_BYTES = BUCKET_INTS * 4;
const AGE_MASK = 63;
const EMPTY_META = 0;

export class TranspositionTable {
  readonly data: Int32Array;
  private readonly bucketMask: number;
  private age = 1;

  constructor(sizeMb: number) {
    const wanted = Math.max(1, Math.floor((Math.max(sizeMb, 0.0625) * 1024 * 1024) / BUCKET_BYTES));
    let buckets = 1;
    while (buckets * 2 <= wanted) buckets *= 2;
    this.data = new Int32Array(buckets * BUCKET_INTS);
    // Touch every page now: the process's RSS then includes the whole table from the first search on,
    // instead of creeping up for many minutes as the table fills (which reads like a leak).
    this.data.fill(0);
    this.bucketMask = buckets - 1;
  }

  get sizeBytes(): number {
    return this.data.byteLength;
  }

  clear(): void {
    this.data.fill(0);
    this.age = 1;
  }

  /** Starts a new search: entries of earlier searches become first candidates for replacement. */
  newSearch(): void {
    this.age = this.age >= AGE_MASK ? 1 : this.age + 1;
  }

  /** Index of the slot holding this position, or -1. */
  probe(hashLo: number, hashHi: number): number {
    const base = (hashLo & this.bucketMask) * BUCKET_INTS;
    const d = this.data;
    if (d[base] === hashHi && d[base + 3] !== EMPTY_META) return base;
    if (d[base + SLOT_INTS] === hashHi && d[base + SLOT_INTS + 3] !== EMPTY_META) return base + SLOT_INTS;
    return -1;
  }

  move(slot: number): number {
    return this.data[slot + 1];
  }

  /** Stored score converted back to the probing node's ply. */
  score(slot: number, ply: number): number {
    return fromTT(this.data[slot + 2], ply);
  }

  depth(slot: number): number {
    return this.data[slot + 3] & 255;
  }

  bound(slot: number): number {
    return (this.data[slot + 3] >>> 8) & 3;
  }

  /** True when the stored value came from a subtree whose every leaf was a finished game. */
  exactSubtree(slot: number): boolean {
    return ((this.data[slot + 3] >>> 10) & 1) === 1;
  }

  store(
    hashLo: number,
    hashHi: number,
    depth: number,
    bound: number,
    score: number,
    ply: number,
    move: number,
    exactSubtree: boolean,
  ): void {
    const d = this.data;
    const base = (hashLo & this.bucketMask) * BUCKET_INTS;
    const other = base + SLOT_INTS;
    let slot: number;
    if (d[base] === hashHi && d[base + 3] !== EMPTY_META) slot = base;
    else if (d[other] === hashHi && d[other + 3] !== EMPTY_META) slot = other;
    else {
      const metaA = d[base + 3];
      const metaB = d[other + 3];
      if (metaA === EMPTY_META) slot = base;
      else if (metaB === EMPTY_META) slot = other;
      else {
        const staleA = ((metaA >>> 11) & AGE_MASK) !== this.age;
        const staleB = ((metaB >>> 11) & AGE_MASK) !== this.age;
        if (staleA !== staleB) slot = staleA ? base : other;
        else slot = (metaA & 255) <= (metaB & 255) ? base : other;
      }
    }
    const meta = d[slot + 3];
    const sameKey = d[slot] === hashHi && meta !== EMPTY_META;
    // Keep a deeper entry of this search over a shallower bound for the same position.
    if (sameKey && ((meta >>> 11) & AGE_MASK) === this.age && (meta & 255) > depth + 2 && bound !== BOUND_EXACT) {
      if (move >= 0 && d[slot + 1] < 0) d[slot + 1] = move;
      return;
    }
    d[slot] = hashHi;
    if (move >= 0 || !sameKey) d[slot + 1] = move;
    d[slot + 2] = toTT(score, ply);
    d[slot + 3] = (Math.min(depth, 255) & 255) | (bound << 8) | ((exactSubtree ? 1 : 0) << 10) | (this.age << 11);
  }

  /** Share of a sample of slots used by the current search, in permille (UCI's hashfull). */
  hashfull(): number {
    let used = 0;
    const sample = Math.min(1000, this.data.length / SLOT_INTS);
    for (let i = 0; i < sample; i++) {
      const meta = this.data[i * SLOT_INTS + 3];
      if (meta !== EMPTY_META && ((meta >>> 11) & AGE_MASK) === this.age) used++;
    }
    return Math.round((used * 1000) / sample);
  }
}

/**
 * A 32-bit salt for the transposition keys of one game and board shape (FNV-1a over the game's name
 * and the shape's numbers). Searcher XORs saltLo / saltHi into every key: a bijection on buckets, so
 * node counts of one game are unchanged, while positions of different games or shapes (an empty
 * board's key is often the same) can no longer share a key.
 */
export function keySalt(game: string, ...shape: number[]): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < game.length; i++) h = Math.imul(h ^ game.charCodeAt(i), 0x01000193);
  for (const n of shape) {
    h = Math.imul(h ^ (n & 0xffff), 0x01000193);
    h = Math.imul(h ^ (n >>> 16), 0x01000193);
  }
  return h | 0;
}

/** The two key halves a salt is XORed into (its high half well mixed, not a copy of the low one). */
export function saltLo(salt: number): number {
  return salt | 0;
}

export function saltHi(salt: number): number {
  let z = Math.imul(salt ^ (salt >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) | 0;
}

/** Proven scores are stored relative to the node, so a transposition at another ply reads them right. */
function toTT(score: number, ply: number): number {
  if (score >= PROVEN_THRESHOLD) return score + ply;
  if (score <= -PROVEN_THRESHOLD) return score - ply;
  return score;
}

function fromTT(score: number, ply: number): number {
  if (score >= PROVEN_THRESHOLD) return score - ply;
  if (score <= -PROVEN_THRESHOLD) return score + ply;
  return score;
}
