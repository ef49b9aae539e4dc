// Preloaded by run-tests.mjs into each test file's process: node 20's test
// runner enables an async hook (init and destroy) on every async resource,
// every promise included, only to name the test an uncaught error came from.
// The reader makes promises per page and per batch: the hook (its destroy
// tracking feeds the garbage collector too) cost 11% of filter/matrix's CPU
// (59.1 to 52.5 s) and a fifth of four other files' (51 and 45 CPU s with
// it, 40 and 36 without, A/B/A/B). Without it an error thrown outside any test's
// await chain still fails the file (the runner reports it and sets the exit
// code), but as "after the test ended", not under its test: to see which
// test, run the file with PARQUETRY_TEST_ASYNC_HOOKS=1.
import { createHook } from 'node:async_hooks';

if (process.env.PARQUETRY_TEST_ASYNC_HOOKS !== '1') {
  const proto = Object.getPrototypeOf(createHook({}));
  const enable = proto.enable;
  proto.enable = function enableUnlessTestRunner() {
    if (new Error().stack?.includes('internal/test_runner/harness')) return this;
    return enable.call(this);
  };
}
