/// <reference types="node" />
/**
 * The one-script-tag embed snippet, pinned with Subresource Integrity: the host page includes
 * code the modal origin serves, so a tampered `sdk.js` (a compromised server or CDN) must be
 * refused by the browser instead of run. `scripts/sri.ts` prints it after every build and
 * writes it into README.md between {@link SNIPPET_START} and {@link SNIPPET_END}.
 */
import { createHash } from 'node:crypto'

/** The modal origin the README's snippet shows. */
export const README_MODAL_URL = 'https://modal.example.com'

/** The comment before the README's snippet block. */
export const SNIPPET_START = '<!-- sdk-embed:start (npm run sri writes this block) -->'
/** The comment after it. */
export const SNIPPET_END = '<!-- sdk-embed:end -->'

/**
 * The `integrity` value of a file: SHA-384 (or `algorithm`), base64, as browsers check it.
 *
 * @example
 * subresourceIntegrity(readFileSync('dist/sdk.js')) // 'sha384-…'
 */
export function subresourceIntegrity(
  bytes: Uint8Array,
  algorithm: 'sha256' | 'sha384' = 'sha384',
): string {
  return `${algorithm}-${createHash(algorithm).update(bytes).digest('base64')}`
}

/** Options of {@link embedSnippet}. */
export type EmbedSnippetParameters = {
  /** Where the modal (and the SDK) is served, e.g. `https://modal.example.com`. */
  modalUrl: string
  /** The SDK release: the script comes from `/sdk/<version>/sdk.js`, which never changes. */
  version: string
  /** {@link subresourceIntegrity} of that release's `sdk.js`. */
  integrity: string
  /** Default `YOUR_PROJECT_ID`. */
  projectId?: string
  /** `data-networks`; default `eip155:1,eip155:8453`. */
  networks?: string
}

/**
 * The HTML a host page pastes: the versioned `sdk.js` with `integrity` and
 * `crossorigin="anonymous"` (the browser refuses other bytes), then a module script that
 * connects.
 *
 * @example
 * embedSnippet({ modalUrl: 'https://modal.example.com', version: '0.1.0', integrity: 'sha384-…' })
 * // '<script src="https://modal.example.com/sdk/0.1.0/sdk.js"\n        integrity="sha384-…" …'
 */
export function embedSnippet(parameters: EmbedSnippetParameters): string {
  const {
    modalUrl,
    version,
    integrity,
    projectId = 'YOUR_PROJECT_ID',
    networks = 'eip155:1,eip155:8453',
  } = parameters
  const src = new URL(`/sdk/${version}/sdk.js`, modalUrl).href
  return [
    `<script src="${src}"`,
    `        integrity="${integrity}" crossorigin="anonymous"`,
    `        data-project-id="${projectId}" data-networks="${networks}"></script>`,
    '<script type="module">',
    '  const { address, chainId } = await porthole.connect()',
    '</script>',
  ].join('\n')
}

/**
 * Thrown when README.md lacks the snippet markers (or has them out of order).
 *
 * @example
 * try { readmeWithSnippet('# no markers', '<script></script>') }
 * catch (error) { error instanceof MissingSnippetMarkersError } // true
 */
export class MissingSnippetMarkersError extends Error {
  override name = 'MissingSnippetMarkersError' as const
  constructor() {
    super(`README.md has no embed snippet block: put ${SNIPPET_START} and ${SNIPPET_END} around it`)
  }
}

/**
 * README text with the block between the markers replaced by `snippet` in an html code fence.
 *
 * @example
 * readmeWithSnippet(readme, embedSnippet({ modalUrl: README_MODAL_URL, version, integrity }))
 */
export function readmeWithSnippet(readme: string, snippet: string): string {
  const start = readme.indexOf(SNIPPET_START)
  const end = readme.indexOf(SNIPPET_END)
  if (start < 0 || end < start) throw new MissingSnippetMarkersError()
  const block = `${SNIPPET_START}\n\`\`\`html\n${snippet}\n\`\`\`\n`
  return readme.slice(0, start) + block + readme.slice(end)
}

/** The SDK script a README snippet pins. */
export type PinnedScript = { src: string; version: string; integrity: string }

/**
 * Reads the SDK URL, version and integrity from the README's snippet block.
 *
 * @example
 * pinnedScript(readFileSync('README.md', 'utf8'))
 * // { src: 'https://modal.example.com/sdk/0.1.0/sdk.js', version: '0.1.0', integrity: 'sha384-…' }
 */
export function pinnedScript(readme: string): PinnedScript {
  const start = readme.indexOf(SNIPPET_START)
  const end = readme.indexOf(SNIPPET_END)
  if (start < 0 || end < start) throw new MissingSnippetMarkersError()
  const block = readme.slice(start, end)
  const src = /<script src="([^"]+\/sdk\/([^/"]+)\/sdk\.js)"/.exec(block)
  const integrity = /integrity="([^"]+)"/.exec(block)
  return {
    src: src?.[1] ?? '',
    version: src?.[2] ?? '',
    integrity: integrity?.[1] ?? '',
  }
}
