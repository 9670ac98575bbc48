import { defineConfig } from 'vitest/config'

/**
 * Two builds: `dist/sdk.js`, one minified IIFE for the script tag (under the size budget), and
 * with `--mode esm` `dist/index.js`, the ES module entry of the npm package.
 */
export default defineConfig(({ mode }) => ({
  build: {
    target: 'es2022',
    emptyOutDir: mode !== 'esm',
    minify: true,
    lib:
      mode === 'esm'
        ? { entry: 'src/index.ts', formats: ['es'], fileName: () => 'index.js' }
        : {
            entry: 'src/script.ts',
            formats: ['iife'],
            name: 'PortholeSDK',
            fileName: () => 'sdk.js',
          },
  },
  test: { name: '@porthole/sdk' },
}))
