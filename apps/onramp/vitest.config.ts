import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: '@porthole/onramp',
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
})
