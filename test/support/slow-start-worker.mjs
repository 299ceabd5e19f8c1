// The scripted worker behind a slow thread start-up (module loading on a busy machine). The wait is
// synchronous on purpose: a top-level await would make this an async module, and Piscina first
// require()s a task file; on Node 20 a require() of an async module still being evaluated (its
// thread preloads the file while the first task loads it again) crashed the whole process in V8.
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
export { default, fallback } from './fake-worker.mjs';
