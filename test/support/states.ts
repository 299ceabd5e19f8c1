/** Game states shared by the HTTP and process tests. */

/** A 19x19 K=6 middlegame: no quick proof, so a search uses its whole budget. */
export const OPEN_STATE = {
  m: 19,
  n: 19,
  k: 6,
  board: Array.from({ length: 19 }, (_, r) =>
    r === 9 ? '........XO.........' : r === 10 ? '.........X.........' : r === 8 ? '.........O.........' : '...................',
  ),
  turn: 'X',
};
