/**
 * Bitboard helpers shared by the WebAssembly kernels (endgame.ts, search.ts): a board is a u64, bit
 * row * 8 + col. Not tsc input; AssemblyScript's `u64`, `unchecked`, `clz` are used.
 */

// @ts-ignore: decorator
@inline
export function board(lo: i32, hi: i32): u64 {
  return ((<u64>(<u32>hi)) << 32) | <u64>(<u32>lo);
}

// @ts-ignore: decorator
@inline
export function bit(sq: i32): u64 {
  return (<u64>1) << (<u64>sq);
}

/**
 * Per square and direction, the squares along the ray from it (itself excluded): directions 0-3 go
 * towards higher bits (east, north-west... by steps +1, +7, +8, +9), 4-7 towards lower bits.
 */
const RAYS = new StaticArray<u64>(64 * 8);
for (let sq = 0; sq < 64; sq++) {
  const row = sq >> 3;
  const col = sq & 7;
  for (let dir = 0; dir < 8; dir++) {
    // (row step, column step) giving square steps +1, +7, +8, +9, -1, -7, -8, -9.
    const dr = dir == 0 || dir == 4 ? 0 : dir < 4 ? 1 : -1;
    const dc = dir == 0 ? 1 : dir == 4 ? -1 : dir == 1 ? -1 : dir == 5 ? 1 : dir == 2 || dir == 6 ? 0 : dir == 3 ? 1 : -1;
    let ray: u64 = 0;
    for (let r = row + dr, c = col + dc; r >= 0 && r < 8 && c >= 0 && c < 8; r += dr, c += dc) ray |= (<u64>1) << (<u64>(r * 8 + c));
    RAYS[sq * 8 + dir] = ray;
  }
}

/** Flips along a ray towards higher bits: the nearest square that is not the opponent's is its lowest bit. */
// @ts-ignore: decorator
@inline
function flipsUp(ray: u64, p: u64, o: u64): u64 {
  const stop = ~o & ray;
  const first = stop & (0 - stop);
  return (first & p) != 0 ? (first - 1) & ray : 0;
}

/** Flips along a ray towards lower bits: the nearest square that is not the opponent's is its highest bit. */
// @ts-ignore: decorator
@inline
function flipsDown(ray: u64, p: u64, o: u64): u64 {
  const stop = ~o & ray;
  if (stop == 0) return 0;
  const first = (<u64>0x8000000000000000) >> clz(stop);
  return (first & p) != 0 ? ray & ~((first << 1) - 1) : 0;
}

/** Discs flipped when the player p plays on sq against o. */
export function flips(sq: i32, p: u64, o: u64): u64 {
  const at = sq << 3;
  return (
    flipsUp(unchecked(RAYS[at]), p, o) |
    flipsUp(unchecked(RAYS[at + 1]), p, o) |
    flipsUp(unchecked(RAYS[at + 2]), p, o) |
    flipsUp(unchecked(RAYS[at + 3]), p, o) |
    flipsDown(unchecked(RAYS[at + 4]), p, o) |
    flipsDown(unchecked(RAYS[at + 5]), p, o) |
    flipsDown(unchecked(RAYS[at + 6]), p, o) |
    flipsDown(unchecked(RAYS[at + 7]), p, o)
  );
}

