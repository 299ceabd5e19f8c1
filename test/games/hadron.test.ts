/**
 * Hadron: rules, codec, search and solver: these test files run in this one process. A test process costs about 1.5 s of CPU under tap's
 * coverage hooks before its first test, and each process loads the same modules again (docs/testing.md).
 * One file alone: npx tap dist/test/games/hadron/codec.js
 */
import './hadron/codec.js';
import './hadron/rules.js';
import './hadron/search.js';
import './hadron/solver.js';
