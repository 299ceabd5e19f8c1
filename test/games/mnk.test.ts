/**
 * The (M,N,K) rules, codec, patterns, defence and the search kernel: these test files run in this one process. A test
 * process costs about 1.5 s of CPU under tap's coverage hooks before its first test, and each process loads the same modules again (docs/testing.md).
 * One file alone: npx tap dist/test/games/mnk/codec.js
 */
import './mnk/codec.js';
import './mnk/rules.js';
import './mnk/position.js';
import './mnk/patterns.js';
import './mnk/defence.js';
import './mnk/vct.js';
import './mnk/selective.js';
import './mnk/search-kernel.js';
