// The scripted worker behind a slow thread start-up (module loading on a busy machine).
await new Promise((resolve) => setTimeout(resolve, 1500));
export { default, fallback } from './fake-worker.mjs';
