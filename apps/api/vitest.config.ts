import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: '@porthole/api',
    environment: 'node',
    // Starts a throwaway PostgreSQL (or uses PORTHOLE_TEST_PG_URL) for the driver tests.
    globalSetup: ['./test/postgresGlobalSetup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
})
