/**
 * The (M,N,K) solver, exact-K rule and known values: these test files run in this one process. A test process costs about 1.5 s of CPU under tap's
 * coverage hooks before its first test, and each process loads the same modules again (docs/testing.md).
 * One file alone: npx tap dist/test/games/mnk/exact-k.js
 */
import './mnk/exact-k.js';
import './mnk/solver.js';
import './mnk/targets.js';
