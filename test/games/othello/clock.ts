import t from 'tap';
import { CLOCK_FREE_EMPTIES, othelloMovesToGo } from '../../../src/games/othello/clock.js';

t.test('an Othello clock counts a share a move down to the solver\'s free range, and one more for the end', async (t) => {
  t.equal(CLOCK_FREE_EMPTIES, 20);
  // 56 empties (four discs placed): the mover's moves at 56, 54, ..., 22 are 18, plus the end's share.
  t.equal(othelloMovesToGo(56), 19);
  t.equal(othelloMovesToGo(55), 19, 'odd empties: the mover plays at 55, 53, ..., 21');
  t.equal(othelloMovesToGo(22), 2);
  t.equal(othelloMovesToGo(21), 2);
  t.equal(othelloMovesToGo(20), 1, 'in the solver\'s range only the end\'s share is left');
  t.equal(othelloMovesToGo(3), 1);
});
