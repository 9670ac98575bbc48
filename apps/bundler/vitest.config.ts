import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    name: '@porthole/bundler',
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
})
