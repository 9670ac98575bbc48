import { minify } from 'terser'
import type { Plugin } from 'vite'
import { defineConfig } from 'vitest/config'
// By path: Vite bundles a config's relative imports but leaves package ones to Node, which
// cannot load TypeScript.
import { precompress } from '../../infra/static-hosting/src/precompress.ts'

/**
 * Two builds: `dist/sdk.js`, one minified IIFE for the script tag (under the size budget), and
 * with `--mode esm` `dist/index.js`, the ES module entry of the npm package. `sdk.js` is served
 * precompressed (`sdk.js.br`, `sdk.js.gz`); the npm entry is not.
 */
export default defineConfig(({ mode }) => ({
  plugins: mode === 'esm' ? [] : [squeeze(), precompress()],
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

/**
 * A second minification of sdk.js by Terser (three passes) after the default minifier: together
 * they take ~80 B more off the brotli size than either alone, and sdk.js is on a 5,120 B budget
 * as served.
 */
function squeeze(): Plugin {
  return {
    name: 'porthole-sdk-squeeze',
    apply: 'build',
    async generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle))
        if (chunk.type === 'chunk') {
          const { code } = await minify(chunk.code, {
            ecma: 2020,
            compress: { passes: 3, unsafe_arrows: true },
            mangle: true,
          })
          if (code) chunk.code = code
        }
    },
  }
}
