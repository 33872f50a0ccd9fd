import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: { '@app': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  // The islands use the automatic JSX runtime, as @astrojs/react does in the build.
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    // Plain helpers run in Node; component tests opt into jsdom with a
    // `@vitest-environment jsdom` comment (creating jsdom costs ~0.7 s a file).
    environment: 'node',
    // The island tests render a whole search page many times; on two busy
    // cores one can pass 5 s (a timeout is no speed goal: scripts/bench*).
    testTimeout: 20_000,
    // One worker per core: the default leaves one core to the main
    // process, which only waits (on two cores that halves the run: 71 s
    // with one worker, 46 s with two).
    maxWorkers: availableParallelism(),
  },
});
