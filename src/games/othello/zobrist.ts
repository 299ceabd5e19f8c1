/**
 * Zobrist keys, indexed by mailbox index so make/unmake can use them while walking rays.
 *
 * Flipping a disc turns it from one colour to the other, so its hash change is the same key
 * (black key ^ white key) whichever way it goes: one table serves both make and unmake.
 */
import { zobristKeys } from '../../core/random.js';
import { MAILBOX, SQUARES } from './board.js';

const KEYS = zobristKeys(SQUARES * 4 + 2, 0x0e11e110);

/** Key halves for a disc of colour `cell - 1` (0 black, 1 white) at a mailbox index: [colour * 100 + box]. */
export const PLACE_KEY_LO = new Int32Array(200);
export const PLACE_KEY_HI = new Int32Array(200);
/** Key halves toggled when the disc at a mailbox index changes colour. */
export const FLIP_KEY_LO = new Int32Array(100);
export const FLIP_KEY_HI = new Int32Array(100);
/** Toggled when the side to move changes (also on a pass). */
export const SIDE_KEY_LO = KEYS[SQUARES * 4];
export const SIDE_KEY_HI = KEYS[SQUARES * 4 + 1];

for (let sq = 0; sq < SQUARES; sq++) {
  const box = MAILBOX[sq];
  for (let colour = 0; colour < 2; colour++) {
    PLACE_KEY_LO[colour * 100 + box] = KEYS[(colour * SQUARES + sq) * 2];
    PLACE_KEY_HI[colour * 100 + box] = KEYS[(colour * SQUARES + sq) * 2 + 1];
  }
  FLIP_KEY_LO[box] = PLACE_KEY_LO[box] ^ PLACE_KEY_LO[100 + box];
  FLIP_KEY_HI[box] = PLACE_KEY_HI[box] ^ PLACE_KEY_HI[100 + box];
}
