/**
 * The HTTP API: routes, limits, the OpenAPI document, access log, playground files: these test files run in this one process. A test process costs about 1.5 s of CPU under tap's
 * coverage hooks before its first test, and each process loads the same modules again (docs/testing.md).
 * One file alone: npx tap dist/test/http/api/access-log.js
 */
import './api/access-log.js';
import './api/limits.js';
import './api/openapi.js';
import './api/playground.js';
import './api/routes.js';
