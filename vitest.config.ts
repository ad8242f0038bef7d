import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql 16 has no exports map: Node loads index.js (CJS) for everyone, our code and graphql-http alike,
    // while Vite would pick index.mjs for our code: two graphql instances ("from another module or realm").
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Each run in its own temp folder; what a test leaves there fails the run (test/support/temp-guard.ts).
    globalSetup: ['test/support/temp-guard.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
