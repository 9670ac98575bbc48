import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/**
 * Tests only (the package ships its TypeScript source). `@porthole/sdk` resolves to its source:
 * its `import` entry is the built `dist/index.js`, and `npm test` runs the unit tests before
 * `npm run build`. `src/ssr.test.ts` builds and imports that entry itself.
 */
export default defineConfig({
  resolve: {
    alias: { '@porthole/sdk': fileURLToPath(new URL('../sdk/src/index.ts', import.meta.url)) },
  },
  test: { name: '@porthole/wagmi', environment: 'node' },
})
