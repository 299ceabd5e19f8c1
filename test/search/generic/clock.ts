import t from 'tap';
import { CLOCK_MAX_SHARE, CLOCK_MIN_MS, clockMoveBudgetMs } from '../../../src/search/clock.js';

t.test('a game clock spreads the bank evenly over the moves to go', async (t) => {
  t.equal(clockMoveBudgetMs({ remainingMs: 19_000, incrementMs: 0 }, 19), 1000, '19 s over 19 moves');
  t.equal(clockMoveBudgetMs({ remainingMs: 10_000, incrementMs: 0 }, 4), 2500);
  t.equal(clockMoveBudgetMs({ remainingMs: 10_000, incrementMs: 0 }, 0), 10_000 * CLOCK_MAX_SHARE, 'no moves to go counts as one');
});

t.test('one move never takes more than its share of the bank; the increment is added', async (t) => {
  t.equal(clockMoveBudgetMs({ remainingMs: 3000, incrementMs: 0 }, 1), 1500, 'the last share is capped at half');
  t.equal(clockMoveBudgetMs({ remainingMs: 3000, incrementMs: 200 }, 6), 700, '500 of the bank + the increment');
  t.equal(clockMoveBudgetMs({ remainingMs: 3000, incrementMs: 200 }, 1), 1700);
});

t.test('an empty or overrun clock still gives a move the minimum', async (t) => {
  t.equal(clockMoveBudgetMs({ remainingMs: 0, incrementMs: 0 }, 5), CLOCK_MIN_MS);
  t.equal(clockMoveBudgetMs({ remainingMs: -400, incrementMs: 0 }, 5), CLOCK_MIN_MS);
  t.equal(clockMoveBudgetMs({ remainingMs: -400, incrementMs: 300 }, 5), 300, 'the increment alone');
});
