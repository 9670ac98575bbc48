import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { name: '@porthole/static-hosting' },
})
