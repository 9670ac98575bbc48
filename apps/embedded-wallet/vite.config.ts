import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import { defineConfig } from 'vitest/config'
// By path: Vite bundles a config's relative imports but leaves package ones to Node, which
// cannot load TypeScript.
import { precompress } from '../../infra/static-hosting/src/precompress.ts'

const EARLY = fileURLToPath(new URL('./src/early.ts', import.meta.url))
const STORAGE = fileURLToPath(new URL('./src/storage.ts', import.meta.url))
const ANNOUNCE = fileURLToPath(new URL('../../packages/protocol/src/announce.ts', import.meta.url))

/**
 * `src/early.ts` (with `src/storage.ts`, which it reads the device share with, and the protocol's
 * `announce.ts`: the `early` chunk below) loaded by an `async` module script in the frame's index.html: it runs as soon as it
 * arrives, so a returning user's first reads start while the frame's code is still being evaluated.
 * The app imports the same files, so both share one instance of them.
 */
function earlyScript(): Plugin {
  return {
    name: 'porthole:early-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, filename }) {
        if (!filename.endsWith('/index.html')) return
        const chunk = Object.values(bundle ?? {}).find(
          (file) => file.type === 'chunk' && file.moduleIds.includes(EARLY),
        )
        if (chunk?.type !== 'chunk') throw new Error('src/early.ts is in no chunk')
        if (
          chunk.imports.length > 0 ||
          chunk.moduleIds.some((id) => id !== EARLY && id !== STORAGE && id !== ANNOUNCE)
        )
          throw new Error(
            `src/early.ts must be alone with src/storage.ts and the protocol's announce.ts, and import nothing; its chunk holds ${chunk.moduleIds.join(', ')} and imports ${chunk.imports.join(', ')}`,
          )
        return [
          {
            tag: 'script',
            attrs: { type: 'module', async: true, crossorigin: true, src: `/${chunk.fileName}` },
            // After the meta tags it reads (the runtime config, its own switch).
            injectTo: 'head',
          },
        ]
      },
    },
  }
}

/**
 * The embedded-wallet frame, its social-login callback page and its popup window: static builds on
 * their own origin, with `.br` and `.gz` beside each file.
 */
export default defineConfig({
  plugins: [earlyScript(), precompress()],
  build: {
    target: 'es2022',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: {
        index: resolve(import.meta.dirname, 'index.html'),
        socialCallback: resolve(import.meta.dirname, 'social-callback.html'),
        popup: resolve(import.meta.dirname, 'popup.html'),
      },
      output: {
        advancedChunks: {
          groups: [
            {
              name: 'early',
              test: /embedded-wallet\/src\/(early|storage)\.ts|protocol\/src\/announce\.ts/,
            },
          ],
        },
      },
    },
  },
  worker: { format: 'es' },
  test: { name: '@porthole/embedded-wallet' },
})
