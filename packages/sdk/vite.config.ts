import { defineConfig } from 'vitest/config'

/** Builds `dist/sdk.js`: one minified IIFE with no dependencies, under the size budget. */
export default defineConfig({
  build: {
    target: 'es2022',
    emptyOutDir: true,
    minify: true,
    lib: {
      entry: 'src/script.ts',
      formats: ['iife'],
      name: 'PortholeSDK',
      fileName: () => 'sdk.js',
    },
  },
  test: { name: '@porthole/sdk' },
})
