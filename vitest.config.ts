import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql ships CJS (main) and ESM (module) builds without an exports map. Node (and so graphql-http,
  // graphql-sse and graphql-ws, which vitest leaves to Node) loads the CJS build; Vite's resolver would
  // hand our own sources the ESM build, and graphql-js refuses a schema "from another module or realm".
  // Resolve it as Node does, so tests run the same single instance production runs.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
