import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'
import { defineConfig } from 'vitest/config'
// By path: Vite bundles a config's relative imports but leaves package ones to Node, which
// cannot load TypeScript.
import { precompress } from '../../infra/static-hosting/src/precompress.ts'

const LOCALES_DIR = new URL('./src/i18n/locales/', import.meta.url)
const LOCALE_FILES = readdirSync(LOCALES_DIR)
  .filter((file) => file.endsWith('.ts'))
  .sort()
/**
 * A hash of the locale sources: part of each locale chunk's name, so a changed translation gets
 * a new name (assets are cached as immutable).
 */
const LOCALE_TAG = createHash('sha256')
  .update(LOCALE_FILES.map((file) => file + readFileSync(new URL(file, LOCALES_DIR))).join('\0'))
  .digest('base64url')
  .slice(0, 8)

/**
 * Each locale's strings (`src/i18n/locales/*.ts`) as a chunk of its own with a name the modal
 * builds from the locale (`assets/locale-ja-<LOCALE_TAG>.js`, the tag given to the app as
 * `import.meta.env.PORTHOLE_LOCALE_TAG`), so the first download carries no map from locales to
 * hashed chunk names.
 */
function localeChunks(): Plugin {
  return {
    name: 'porthole:locale-chunks',
    apply: 'build',
    buildStart() {
      for (const file of LOCALE_FILES)
        this.emitFile({
          type: 'chunk',
          id: fileURLToPath(new URL(file, LOCALES_DIR)),
          fileName: `assets/locale-${file.slice(0, -3)}-${LOCALE_TAG}.js`,
          preserveSignature: 'strict',
        })
    },
  }
}

/**
 * `src/early.ts` (a chunk of its own with the protocol's `announce.ts`: the `early` group below) loaded by an `async` module script
 * at the top of index.html: it runs as soon as it arrives, so the first view's API requests and
 * images start while the app's code is still downloading and being evaluated (inside the app's
 * module graph it would run only once the whole graph had arrived). The app imports the same
 * file, so both share one instance of it.
 */
function earlyScript(): Plugin {
  const id = fileURLToPath(new URL('./src/early.ts', import.meta.url))
  const ANNOUNCE = fileURLToPath(
    new URL('../../packages/protocol/src/announce.ts', import.meta.url),
  )
  return {
    name: 'porthole:early-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const chunk = Object.values(bundle ?? {}).find(
          (file) => file.type === 'chunk' && file.moduleIds.includes(id),
        )
        if (chunk?.type !== 'chunk') throw new Error('src/early.ts is in no chunk')
        if (chunk.imports.length > 0 || chunk.moduleIds.some((m) => m !== id && m !== ANNOUNCE))
          throw new Error(
            `src/early.ts must be alone with the protocol's announce.ts and import nothing; its chunk holds ${chunk.moduleIds.join(', ')} and imports ${chunk.imports.join(', ')}`,
          )
        // Right after the config it reads, before the app's own script: the preload scanner
        // requests it first (at the end of <head> it came after the app's 100 KiB, ~150 ms
        // later on a loaded machine, and the first view's requests with it).
        const config = '<meta name="porthole-config" content="__PORTHOLE_CONFIG__" />'
        if (!html.includes(config)) throw new Error(`index.html has no ${config}`)
        return html.replace(
          config,
          `${config}\n    <script type="module" async crossorigin src="/${chunk.fileName}"></script>`,
        )
      },
    },
  }
}

/**
 * Marks the chunks of the first download (the entry and what it imports statically) with V8's
 * explicit compile hint, `//# allFunctionsCalledOnLoad` (Chromium 136+; other engines read a
 * comment): their functions are compiled while the file streams in, on a background thread,
 * instead of one by one on the main thread as the first render calls them. Most of React DOM runs
 * in that render. On this machine the main thread's compile time until the first open view fell
 * from 104–127 ms to 38–86 ms (traces, 4 visits each); navigation → usable on 2 cores moved by
 * less than the noise (4 bench runs, with and without). Lazy chunks stay unmarked: most of their
 * functions never run.
 */
function compileHints(): Plugin {
  const HINT = '//# allFunctionsCalledOnLoad\n'
  return {
    name: 'porthole:compile-hints',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      // After Vite's own rewrites of the chunks (its preload helper), so the hint stays first.
      order: 'post',
      handler(_options, bundle) {
        const eager = new Set<string>()
        const visit = (fileName: string) => {
          const chunk = bundle[fileName]
          if (chunk?.type !== 'chunk' || eager.has(fileName)) return
          eager.add(fileName)
          for (const imported of chunk.imports) visit(imported)
        }
        // The page's own entry (index.html's), not the locale chunks emitted as entries.
        for (const file of Object.values(bundle))
          if (file.type === 'chunk' && file.isEntry && file.facadeModuleId?.endsWith('.html'))
            visit(file.fileName)
        for (const fileName of eager) {
          const chunk = bundle[fileName]
          if (chunk?.type === 'chunk') chunk.code = HINT + chunk.code
        }
      },
    },
  }
}

/**
 * The modal app: a static build served by infra/static-hosting on its own origin, with `.br` and
 * `.gz` beside each file.
 */
export default defineConfig({
  plugins: [react(), localeChunks(), earlyScript(), compileHints(), precompress()],
  define: { 'import.meta.env.PORTHOLE_LOCALE_TAG': JSON.stringify(LOCALE_TAG) },
  build: {
    target: 'es2022',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The bundler splits a module that the first download and a lazy view share into a
        // chunk of its own: left alone, the first download was 13 files (~370 B of response
        // headers each, and each compressed alone). The modules the first download shares
        // with lazy views travel as one chunk, `core`: 4 files, ~7 KB less on the wire. A module
        // newly shared shows up as a new eager file in dist/index.html: add it here.
        advancedChunks: {
          groups: [
            // Before `core`, which takes its members' imports along: early.ts stays alone.
            {
              name: 'early',
              test: /modal-host\/src\/early\.ts|protocol\/src\/announce\.ts/,
              priority: 2,
            },
            {
              name: 'core',
              priority: 1,
              test: /modal-host\/src\/(runtime|store\/(store|defaults|persist|sendState|activityState)|host\/bridge|rules\/(socials|alerts|unsupportedChain|caches|adapters|backTarget|openingScreen|networkSwitchView)|actions\/(alerts|balance|connection|waiters|modal|analytics|network|auth)|analytics\/(errors|rateLimiter|createAnalytics)|wallet\/frame|components\/Images|i18n\/en|api\/client)\.tsx?|protocol\/src\/(errors|constants|Channel|Parent|guards\/(envelope|check|toModal)|contracts\/walletConstants)\.ts|shared\/src\/(endpoints|bitcoinLocal|caip|format|solanaLocal|networks|http|validation)\.ts|node_modules\/(react\/|zustand\/)/,
            },
          ],
        },
      },
    },
  },
  test: { name: '@porthole/modal-host', environment: 'node' },
})
