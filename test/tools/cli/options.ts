/**
 * The shared command-line option readers of src/core/cli.ts that the tools use: numberOption, partOption and rangeOption.
 */
import t from 'tap';
import { UsageError, numberOption, partOption, rangeOption } from '../../../src/core/cli.js';

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

t.test('rangeOption: A-B to [A, B], undefined when absent, a UsageError naming the option and its bound otherwise', async (t) => {
  t.equal(rangeOption({}, 'stages', 15), undefined);
  t.same(rangeOption({ stages: '3-10' }, 'stages', 15), [3, 10]);
  t.same(rangeOption({ stages: '14-14' }, 'stages', 15), [14, 14]);
  t.same(rangeOption({ 'exclude-openings': '120-199' }, 'exclude-openings'), [120, 199], 'no bound by default');
  for (const bad of ['4-2', '3-15', '3', '-3', '3-', 'a-b', '1-2-3']) {
    t.throws(() => rangeOption({ stages: bad }, 'stages', 15), new UsageError(`--stages must be A-B with A <= B < 15, got '${bad}'`), bad);
  }
  t.throws(() => rangeOption({ 'exclude-openings': '5-2' }, 'exclude-openings'), new UsageError("--exclude-openings must be A-B with A <= B, got '5-2'"));
});
