/**
 * The K = 5 kernel's entry (compiled by `npm run build` to dist/src/games/mnk/patterns.wasm): the pattern board's
 * make and unmake (patterns.ts) and, in the same memory, the search below the root (search.ts) and the root's VCT (vct.ts).
 */
export { layout, offsetOf, setCounters, setRecodeReach, place, remove, removesAll } from './patterns';
export { searchLayout, searchOffsetOf, setSettings, search, nodesAfter, heuristicLeaves } from './search';
export { vctLayout, vctOffsetOf, vctFindWin, vctNodes, vctStopped } from './vct';
