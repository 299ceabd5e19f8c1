/**
 * The HTTP analysis routes: analyse, review and playing levels: these test files run in this one process. A test process costs about 1.5 s of CPU under tap's
 * coverage hooks before its first test, and each process loads the same modules again (docs/testing.md).
 * One file alone: npx tap dist/test/http/api/analyse.js
 */
import './api/analyse.js';
import './api/review.js';
import './api/levels.js';
