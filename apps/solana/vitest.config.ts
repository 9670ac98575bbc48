import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { name: '@porthole/solana', testTimeout: 30_000, hookTimeout: 30_000 },
})
