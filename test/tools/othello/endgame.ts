import { readFileSync } from 'node:fs';
import t from 'tap';
import { Random } from '../../../src/core/random.js';
import { Searcher } from '../../../src/search/search.js';
import { TranspositionTable } from '../../../src/search/tt.js';
import { checkEndgames, samplePosition } from '../../../tools/othello-endgame.js';
import { parseOpenings } from '../../../tools/othello-match.js';
import { urlFromRoot } from '../../support/paths.js';

// DEFAULT_OPENINGS is resolved for the compiled tool (dist/tools); the tests run the sources.
const openings = parseOpenings(readFileSync(urlFromRoot('tools/othello-openings.txt'), 'utf8'));

t.test('samplePosition: a position with exactly the empties asked for', async (t) => {
  const rng = new Random(3);
  const mover = new Searcher(new TranspositionTable(1));
  let found = 0;
  for (let i = 0; i < 5; i++) {
    const pos = samplePosition(30, rng, mover, openings);
    if (pos === null) continue;
    found++;
    t.equal(pos.empties, 30);
  }
  t.ok(found >= 4, `most games reach 30 empties (${found} of 5)`);
});

t.test('checkEndgames: within the exact limit the service never gives away an outcome', async (t) => {
  const lines: string[] = [];
  // 12 empties at 1000 ms: solvableEmpties(600) = 19, so every answer is an exact solve.
  checkEndgames({ empties: [12], positions: 3, ms: 1000, seed: 5, openings }, (line) => lines.push(line));
  t.equal(lines.length, 1);
  t.match(lines[0], /^12 empties, 3 positions \(\d won, \d drawn for the side to move\) at 1000 ms: /);
  t.match(lines[0], /by the service 0; proved 3;/, 'all three proved, none dropped');
});

t.test('checkEndgames --discs: an exact answer gives away no discs, and the per-move figures add up', async (t) => {
  const lines: string[] = [];
  checkEndgames({ empties: [12], positions: 3, ms: 1000, seed: 5, openings, discs: true, verbose: true }, (line) => lines.push(line));
  t.equal(lines.length, 5, 'three positions, the summary, the discs line');
  const given = lines.slice(0, 3).map((line) => {
    const m = /exact (-?\d+), discs given away: search (\d+), service (\d+)$/.exec(line);
    t.ok(m, `a discs figure per position: ${line}`);
    return [Number(m?.[2]), Number(m?.[3])];
  });
  t.same(given.map(([, service]) => service), [0, 0, 0], 'the exact solve plays a best move');
  const search = given.reduce((sum, [s]) => sum + s, 0) / 3;
  t.match(lines[4], new RegExp(`^  mean discs given away per move: midgame search ${search.toFixed(2)}, service 0\\.00; in the \\d lost positions: `));
});
