import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { minify } from 'terser'
import { build, type Plugin } from 'vite'
import { defineConfig } from 'vitest/config'
// By path: Vite bundles a config's relative imports but leaves package ones to Node, which
// cannot load TypeScript.
import { precompress } from '../../infra/static-hosting/src/precompress.ts'
import { subresourceIntegrity } from './scripts/embedSnippet.ts'

const { version } = JSON.parse(readFileSync(resolve(import.meta.dirname, 'package.json'), 'utf8'))

/** The part of the script-tag SDK that sdk.js loads at start (wallet discovery), beside sdk.js. */
const CHAINS_FILE = 'sdk-chains.js'
/** The part sdk-chains.js loads on the first call or the click (where calls run), beside it. */
const CALLS_FILE = 'sdk-calls.js'

/**
 * Property names that exist only inside sdk.js (the protocol's `Parent` / `Channel` options and
 * internals, the dialog's handle), shortened by Terser in that one bundle. Never a name the page,
 * the DOM, the wire or sdk-chains.js also uses (`request`, `emit`, `list`, `origin`, `debug`…).
 */
const INTERNAL_PROPERTIES =
  /^(?:frame|hello|validator|handlers|onChannel|onError|onReady|onClose|envelope|timer|closed)$/

/**
 * Two builds: `dist/sdk.js`, one minified IIFE for the script tag (under the size budget) with
 * `dist/sdk-chains.js`, the IIFE it loads at start (wallet discovery), and `dist/sdk-calls.js`,
 * the IIFE that one loads when calls are needed; and with
 * `--mode esm` `dist/index.js`, the ES module entry of the npm package (which imports the same
 * code dynamically). The script files are served precompressed (`.br`, `.gz`); the npm entry is
 * not.
 */
export default defineConfig(({ mode }) => ({
  plugins: mode === 'esm' ? [] : [squeeze(INTERNAL_PROPERTIES), chains(), precompress()],
  define:
    mode === 'esm'
      ? {
          __PORTHOLE_CHAINS_SRI__: 'undefined',
          __PORTHOLE_CALLS_SRI__: 'undefined',
          __PORTHOLE_SDK_VERSION__: JSON.stringify(version),
        }
      : {},
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
 * A second minification of sdk.js by Terser (five passes) after the default minifier: together
 * they take ~80 B more off the brotli size than either alone, and sdk.js is on a 5,120 B budget
 * as served. Terser's `unsafe*` and `pure_getters` hold for this code (no getter with side
 * effects, no builtin that is replaced, no method used as a constructor): ~25 B more; and
 * `mangleProperties` shortens the internal property names of sdk.js: ~35 B.
 */
function squeeze(mangleProperties?: RegExp): Plugin {
  return {
    name: 'porthole-sdk-squeeze',
    apply: 'build',
    async generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle))
        if (chunk.type === 'chunk') {
          const { code } = await minify(chunk.code, {
            ecma: 2020,
            compress: {
              passes: 5,
              unsafe_arrows: true,
              unsafe: true,
              unsafe_methods: true,
              pure_getters: true,
            },
            mangle: mangleProperties ? { properties: { regex: mangleProperties } } : true,
          })
          if (code) chunk.code = code
        }
    },
  }
}

/** Builds one more IIFE entry of the script-tag SDK, minified as sdk.js is; returns its code. */
async function buildPart(entry: string, name: string, fileName: string, define = {}) {
  const output = await build({
    configFile: false,
    root: import.meta.dirname,
    logLevel: 'warn',
    plugins: [squeeze()],
    define,
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      lib: {
        entry: resolve(import.meta.dirname, entry),
        formats: ['iife'],
        name,
        fileName: () => fileName,
      },
    },
  })
  const [result] = Array.isArray(output) ? output : [output]
  const chunk = result && 'output' in result ? result.output[0] : undefined
  if (!chunk) throw new Error(`${fileName}: the build produced nothing`)
  return chunk.code
}

/**
 * Builds `sdk-calls.js` (`src/calls.ts`, an IIFE setting `window.PortholeCalls`), then
 * `sdk-chains.js` (`src/chains.ts`, setting `window.PortholeChains`) with the SHA-256 of the
 * first baked in (`__PORTHOLE_CALLS_SRI__`), then bakes the version path and SHA-256 of
 * sdk-chains.js into sdk.js (`__PORTHOLE_SDK_VERSION__`, `__PORTHOLE_CHAINS_SRI__`), and writes
 * both beside sdk.js: each file loads the next with `integrity`, so pinning sdk.js pins all
 * three.
 */
function chains(): Plugin {
  let calls = ''
  let code = ''
  return {
    name: 'porthole-sdk-chains',
    apply: 'build',
    async config() {
      calls = await buildPart('src/calls.ts', 'PortholeCalls', CALLS_FILE)
      code = await buildPart('src/chains.ts', 'PortholeChains', CHAINS_FILE, {
        __PORTHOLE_CALLS_SRI__: JSON.stringify(subresourceIntegrity(Buffer.from(calls), 'sha256')),
      })
      return {
        define: {
          // SHA-256, not the snippet's SHA-384: as strong against a substituted file (a second
          // preimage), and its 20 fewer base64 characters (incompressible) are 19 B of sdk.js.
          __PORTHOLE_CHAINS_SRI__: JSON.stringify(
            subresourceIntegrity(Buffer.from(code), 'sha256'),
          ),
          __PORTHOLE_SDK_VERSION__: JSON.stringify(version),
        },
      }
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: CALLS_FILE, source: calls })
      this.emitFile({ type: 'asset', fileName: CHAINS_FILE, source: code })
    },
  }
}
