/**
 * The Othello search, its WebAssembly kernels and the endgame solver: these test files run in this one process. A test process costs about 1.5 s of CPU under tap's
 * coverage hooks before its first test, and each process loads the same modules again (docs/testing.md).
 * One file alone: npx tap dist/test/games/othello/deadline.js
 */
import './othello/deadline.js';
import './othello/clock.js';
import './othello/http.js';
import './othello/kernel.js';
import './othello/probcut.js';
import './othello/search-kernel.js';
import './othello/solver.js';
