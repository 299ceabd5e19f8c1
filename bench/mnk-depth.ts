/**
 * node dist/bench/mnk-depth.js [--ms N] [--min-depth D] [--depth D] [--typescript]
 *
 * The depth a timed search of the K = 5 pattern path reaches on 20x20 middle games (plies 10, 14, 18 and 22 of the first
 * twelve games of bench/games/mnk.ts's record: 43 positions), each on a fresh 64 MiB table: how a change to the search's
 * shape turns into depth at a turn's budget (docs/gomoku-strength.md, fifteenth round). Run it on two builds, one at a
 * time, on an idle machine: the depths move with the machine's speed. With --depth, each position is searched to that
 * depth instead: the node count (the tree's signature) and the CPU time, for the speed of one tree on two builds. With
 * --typescript the search below the root runs in TypeScript instead of its WebAssembly kernel (the same tree).
 */
import { type ParsedArgs, intOption, runCliIfMain } from '../src/core/cli.js';
import { Searcher } from '../src/search/search.js';
import { TranspositionTable } from '../src/search/tt.js';
import { useSearchKernel } from '../src/games/mnk/search-kernel.js';
import { middleGames } from './games/mnk.js';
import { analyse } from '../src/search/analyse.js';
import { engine } from '../src/games/mnk/index.js';

const spec = {
  name: 'mnk-depth',
  usage: `node dist/bench/mnk-depth.js [--ms N] [--min-depth D] [--depth D] [--typescript] [--turn]

Searches 43 20x20 middle-game positions for N ms each (default 850, the pbrain brain's budget of a 1000 ms turn) and
prints the depth each reached, their mean, and the mean over the positions that reached depth D or more (default 8;
the others end early on a forced reply or a proven result).

  --ms N          time a position (default 850)
  --min-depth D   the second mean's floor (default 8)
  --depth D       search each position to depth D instead: total nodes, CPU time and nodes a CPU-second
  --typescript    search below the root and the root's VCT in TypeScript, not in the WebAssembly kernel (the same
                  trees, slower)
  --turn          run each position as a move of the service or the pbrain brain does: the root solver first (its
                  VCF and VCT), then the search in the time left; prints the solver's and the search's CPU time too
  --help          this text`,
  options: { ms: { type: 'string' }, 'min-depth': { type: 'string' }, depth: { type: 'string' }, typescript: { type: 'boolean' }, turn: { type: 'boolean' } },
} as const;

function main({ values }: ParsedArgs<typeof spec.options>): void {
  const ms = intOption(values, 'ms', 850, 1, 600_000);
  const minDepth = intOption(values, 'min-depth', 8, 1, 100);
  const searcher = new Searcher(new TranspositionTable(64));
  if (values.typescript === true) useSearchKernel(false);
  if (values.depth !== undefined) {
    const depth = intOption(values, 'depth', 12, 1, 64);
    let nodes = 0;
    const start = process.cpuUsage();
    for (const pos of middleGames([10, 14, 18, 22], 12, Infinity)) {
      searcher.tt.clear();
      nodes += searcher.search(pos, { maxDepth: depth }).nodes;
    }
    const used = process.cpuUsage(start);
    const ms = (used.user + used.system) / 1000;
    console.log(`depth ${depth}: nodes ${nodes}, CPU ${ms.toFixed(0)} ms, ${((nodes / ms) * 1000).toFixed(0)} nodes a CPU-second`);
    return;
  }
  const depths: number[] = [];
  let nodes = 0;
  let solved = 0;
  const start = process.cpuUsage();
  for (const pos of middleGames([10, 14, 18, 22], 12, Infinity)) {
    searcher.tt.clear();
    const deadline = Date.now() + ms;
    const r = values.turn === true ? analyse(engine, pos, searcher, { deadline }) : { ...searcher.search(pos, { deadline }), solved: false };
    if (r.solved) solved++;
    depths.push(r.depth);
    nodes += r.nodes;
  }
  const used = process.cpuUsage(start);
  const mean = (xs: number[]): string => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2);
  const deep = depths.filter((d) => d >= minDepth);
  console.log(`depths at ${ms} ms: ${depths.join(' ')}`);
  console.log(`positions ${depths.length}, mean depth ${mean(depths)}, nodes ${nodes}; ${deep.length} at depth ${minDepth} or more: mean ${mean(deep)}`);
  if (values.turn === true) console.log(`turns answered by the root solver ${solved}; CPU ${((used.user + used.system) / 1000).toFixed(0)} ms`);
}

runCliIfMain(import.meta.url, spec, main);
