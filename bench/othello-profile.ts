/**
 * node [--cpu-prof] dist/bench/othello-profile.js [--depth N] [--positions K] [--signature] [--solve | --prove] [--no-kernel] [--summary FILE.cpuprofile]
 *
 * The Othello search's hot path on a fixed tree: the bench's twelve midgame positions (bench/games/othello.ts),
 * each searched by a fresh searcher to a fixed depth, so the node count is deterministic and a profile or an
 * instruction count (valgrind) of this run compares code on the same tree. `--summary` reads a V8 CPU profile
 * (written by `node --cpu-prof`) and prints the self time per function, grouped into the engine's parts.
 */
import { readFileSync } from 'node:fs';
import { type ParsedArgs, intOption, numberOption, runCliIfMain } from '../src/core/cli.js';
import { Searcher } from '../src/search/search.js';
import { TranspositionTable } from '../src/search/tt.js';
import { disableEndgameKernel } from '../src/games/othello/kernel.js';
import { disableSearchKernel } from '../src/games/othello/search-kernel.js';
import { solveExactly } from '../src/games/othello/solver.js';
import { type ProbCutFile, buildProbCutTable, setProbCutTable } from '../src/games/othello/probcut.js';
import { PROOF_POSITIONS, TWENTY_EMPTIES, decode, midgamePositions, proveOutcomes } from './games/othello.js';

const spec = {
  name: 'othello-profile',
  usage: `node dist/bench/othello-profile.js [--depth N] [--positions K] [--signature] [--solve | --prove] [--no-kernel] [--probcut-table FILE] [--probcut T] [--summary FILE]

Searches the bench's midgame positions to a fixed depth (deterministic node count) for profiling: run it
as \`node --cpu-prof dist/bench/othello-profile.js ...\` for a V8 CPU profile, or under valgrind.

  --depth N        fixed depth (default 11)
  --positions K    first K of the 12 positions (default 12; with --solve, of the ten; with --prove, of the twelve)
  --solve          solve the bench's ten 20-empty positions exactly instead
  --prove          prove the outcome (win, loss or draw) of the bench's twelve 22-empty game positions instead
  --signature      also print each position's nodes, score and principal variation
  --probcut-table FILE  search with this ProbCut table instead of the committed one (tools/othello-probcut.ts writes one)
  --probcut T      the ProbCut confidence in standard deviations (default the service's; 0 = off)
  --no-kernel      without the WebAssembly kernels (the TypeScript negamax; with --solve or --prove, the TypeScript shallow solver)
  --summary FILE   print the self time per function of a V8 .cpuprofile instead of searching
  --help           this text`,
  options: {
    depth: { type: 'string' },
    positions: { type: 'string' },
    summary: { type: 'string' },
    solve: { type: 'boolean' },
    prove: { type: 'boolean' },
    signature: { type: 'boolean' },
    'no-kernel': { type: 'boolean' },
    'probcut-table': { type: 'string' },
    probcut: { type: 'string' },
  },
} as const;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/**
 * Engine part of a function, by its name (for the profile table in docs/othello-engine.md). V8 inlines
 * small functions into their callers, so a part is where the samples land, not a strict call tree: the
 * incremental index update, for one, is inlined into makeMove.
 */
function partOf(name: string): string {
  if (/^(TranspositionTable|PatternEvaluator|decodePatternWeights|compileSourceTextModule|parse|openFileHandle|readFile.*)$/.test(name)) {
    return 'start-up (weights, tables, modules)';
  }
  if (/^(evaluate|evaluateIndexed|patternIndices|globalFeatures|gatherDiagonal|lineIndex|cornerIndex|edgeXIndex|block25Index|columnBits)$/.test(name)) {
    return 'evaluation';
  }
  if (/^(moveOrderScore|scoreMoves|pickMove|onCutoff)$/.test(name)) return 'move ordering';
  if (/^(flips|flipsLowSquare|flipsHighSquare)$/.test(name)) return 'bitboard flips (move ordering, solver)';
  if (/^(makeMove|unmakeMove|updateIndices)$/.test(name)) return 'make/unmake (with the index update)';
  if (/^(mobility|ownMobility|opponentCanMove|terminal|generateMoves|generate|popcount|neighbours)$/.test(name)) return 'move generation, terminal test';
  if (/^(probe|store|move|score|depth|bound|exactSubtree|newSearch)$/.test(name)) return 'transposition table';
  if (/^probCut/.test(name)) return 'ProbCut';
  if (/^(negamax|searchRoot|checkStop|updatePv|search)$/.test(name)) return 'search (negamax, inlined callees)';
  if (name === '(garbage collector)') return 'garbage collector';
  if (name.startsWith('wasm-function')) return 'WebAssembly kernel';
  if (/^(deep|shallow|lastFour|lastThree|lastTwo|shallowKernel|remove|restore|ttSlot|stableDiscs)$/.test(name)) return 'endgame solver (TypeScript)';
  return 'other';
}

function summarise(file: string): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfByName = new Map<string, number>();
  const selfByPart = new Map<string, number>();
  let total = 0;
  for (const id of profile.samples) {
    const node = byId.get(id);
    if (node === undefined) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' || functionName === '(program)' || functionName === '(root)') continue;
    const file = url.replace(/^.*\/dist\//, '');
    const key = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    selfByName.set(key, (selfByName.get(key) ?? 0) + 1);
    const part = partOf(functionName);
    selfByPart.set(part, (selfByPart.get(part) ?? 0) + 1);
    total++;
  }
  const pct = (n: number): string => ((100 * n) / total).toFixed(1).padStart(5) + '%';
  console.log(`${total} samples (idle and program excluded)`);
  console.log('\nby part:');
  for (const [part, n] of [...selfByPart].sort((a, b) => b[1] - a[1])) console.log(`${pct(n)}  ${part}`);
  console.log('\nby function (self):');
  for (const [name, n] of [...selfByName].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${pct(n)}  ${name}`);
}

function solveTwenty(count: number): void {
  let nodes = 0;
  const scores: number[] = [];
  const cpuStart = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (const p of TWENTY_EMPTIES.slice(0, count)) {
    const r = solveExactly(decode(p.board, p.turn), null);
    if (r === null) throw new Error('not solved');
    nodes += r.nodes;
    scores.push(r.exactScore!);
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(`${count} 20-empty solves: scores ${scores.join(' ')}, ${nodes} nodes in ${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU`);
}

function main({ values }: ParsedArgs<typeof spec.options>): void {
  if (values.summary !== undefined) {
    summarise(String(values.summary));
    return;
  }
  if (values['no-kernel'] === true) disableSearchKernel();
  const tableFile = values['probcut-table'];
  if (tableFile !== undefined) setProbCutTable(buildProbCutTable(JSON.parse(readFileSync(tableFile, 'utf8')) as ProbCutFile));
  if (values.prove === true || values.solve === true) {
    if (values['no-kernel'] === true) disableEndgameKernel();
  }
  if (values.prove === true) {
    const cpuStart = process.cpuUsage();
    const { outcomes, nodes, ms } = proveOutcomes(intOption(values, 'positions', PROOF_POSITIONS.length, 1, PROOF_POSITIONS.length));
    const cpu = process.cpuUsage(cpuStart);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    console.log(`${outcomes.length} 22-empty proofs: outcomes ${outcomes.join(' ')}, ${nodes} nodes in ${ms} ms wall, ${cpuMs.toFixed(0)} ms CPU`);
    return;
  }
  if (values.solve === true) {
    solveTwenty(intOption(values, 'positions', 10, 1, 10));
    return;
  }
  const depth = intOption(values, 'depth', 11, 1, 30);
  const count = intOption(values, 'positions', 12, 1, 12);
  const positions = midgamePositions().slice(0, count);
  if (values.probcut !== undefined) {
    const confidence = numberOption(values, 'probcut', 0, 0, 10);
    for (const pos of positions) pos.probCutConfidence = confidence;
  }
  let nodes = 0;
  const cpuStart = process.cpuUsage();
  const started = process.hrtime.bigint();
  const signatures: string[] = [];
  for (const [i, pos] of positions.entries()) {
    const r = new Searcher(new TranspositionTable(16)).search(pos, { maxDepth: depth });
    nodes += r.nodes;
    if (values.signature === true) signatures.push(`position ${i + 1}: ${r.nodes} nodes, score ${r.score}, pv ${r.pv.join(' ')}`);
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const rate = (t: number): number => Math.round((nodes * 1000) / t);
  console.log(
    `midgame depth ${depth}: ${positions.length} positions, ${nodes} nodes in ${ms.toFixed(0)} ms wall (${rate(ms)} nodes/s), ` +
      `${cpuMs.toFixed(0)} ms CPU (${rate(cpuMs)} nodes/s)`,
  );
  for (const line of signatures) console.log(line);
}

runCliIfMain(import.meta.url, spec, main);
