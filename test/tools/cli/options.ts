/**
 * The shared command-line option readers of src/core/cli.ts that the tools use: numberOption and partOption.
 */
import t from 'tap';
import { UsageError, numberOption, partOption } from '../../../src/core/cli.js';

t.test('numberOption: the fallback when absent, the value in range, a UsageError naming the option otherwise', async (t) => {
  t.equal(numberOption({}, 'probcut', 0, 0, 10), 0);
  t.equal(numberOption({ probcut: '1.5' }, 'probcut', 0, 0, 10), 1.5);
  t.equal(numberOption({ probcut: '10' }, 'probcut', 0, 0, 10), 10);
  for (const bad of ['', ' ', 'x', '-0.5', '10.5', 'NaN', 'Infinity']) {
    t.throws(() => numberOption({ probcut: bad }, 'probcut', 0, 0, 10), new UsageError(`--probcut must be a number from 0 to 10, got '${bad}'`), bad);
  }
});

t.test('partOption: K/M to a zero-based share, all when absent, a UsageError otherwise', async (t) => {
  t.same(partOption({}, 'part'), { part: 0, parts: 1 });
  t.same(partOption({ part: '1/2' }, 'part'), { part: 0, parts: 2 });
  t.same(partOption({ part: '3/3' }, 'part'), { part: 2, parts: 3 });
  for (const bad of ['0/2', '3/2', '1', '1/', 'a/b', '1/2/3']) {
    t.throws(() => partOption({ part: bad }, 'part'), new UsageError(`--part must be K/M with 1 <= K <= M, got '${bad}'`), bad);
  }
});
