import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'common/**/*.test.ts', 'app/**/*.test.ts', 'tests/unit/**/*.test.ts'],
    globalSetup: ['tests/setup/global-db.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 90_000,
    env: { NODE_ENV: 'test' },
  },
});
