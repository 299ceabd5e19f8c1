/**
 * The pool's search threads beside the main pool: the fallback thread, progress reports, Lazy SMP helpers. These test files run in
 * this one process (a test process costs about 1.5 s of CPU under tap's coverage hooks; docs/testing.md).
 * One file alone: npx tap dist/test/pool/threads/progress.js
 */
import './threads/fallback.js';
import './threads/progress.js';
import './threads/lazy-smp.js';
