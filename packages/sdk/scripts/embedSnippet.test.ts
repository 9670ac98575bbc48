import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { describe, expect, test } from 'vitest'
import {
  embedSnippet,
  MissingSnippetMarkersError,
  pinnedScript,
  README_MODAL_URL,
  readmeWithSnippet,
  SNIPPET_END,
  SNIPPET_START,
  subresourceIntegrity,
} from './embedSnippet.ts'

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url))
const README = fileURLToPath(new URL('../../../README.md', import.meta.url))

describe('embed snippet', () => {
  test('the integrity is the SHA-384 of the bytes, base64, as browsers compute it', () => {
    // The example of the Subresource Integrity spec: alert('Hello, world.');
    expect(subresourceIntegrity(Buffer.from("alert('Hello, world.');"))).toBe(
      'sha384-H8BRh8j48O9oYatfu5AZzq6A9RINhZO5H16dQZngK7T62em8MUt1FLm52t+eX6xO',
    )
  })

  test('pins the versioned URL with integrity and crossorigin', () => {
    const snippet = embedSnippet({
      modalUrl: 'https://modal.example.com',
      version: '1.2.3',
      integrity: 'sha384-abc',
    })
    expect(snippet).toContain('<script src="https://modal.example.com/sdk/1.2.3/sdk.js"')
    expect(snippet).toContain('integrity="sha384-abc" crossorigin="anonymous"')
    expect(snippet).toContain('data-project-id="YOUR_PROJECT_ID"')
    // Top-level await needs a module script.
    expect(snippet).toContain('<script type="module">')
  })

  test('rewrites only the block between the markers, and reads it back', () => {
    const readme = `# Title\n\n${SNIPPET_START}\n\`\`\`html\nold\n\`\`\`\n${SNIPPET_END}\n\nMore text.\n`
    const snippet = embedSnippet({ modalUrl: README_MODAL_URL, version: '2.0.0', integrity: 'x' })
    const updated = readmeWithSnippet(readme, snippet)
    expect(updated).toBe(
      `# Title\n\n${SNIPPET_START}\n\`\`\`html\n${snippet}\n\`\`\`\n${SNIPPET_END}\n\nMore text.\n`,
    )
    expect(readmeWithSnippet(updated, snippet)).toBe(updated)
    expect(pinnedScript(updated)).toEqual({
      src: 'https://modal.example.com/sdk/2.0.0/sdk.js',
      version: '2.0.0',
      integrity: 'x',
    })
  })

  test('a README without the markers is an error, not a silent no-op', () => {
    expect(() => readmeWithSnippet('# Title\n', 'x')).toThrow(MissingSnippetMarkersError)
    expect(() => readmeWithSnippet(`${SNIPPET_END}\n${SNIPPET_START}\n`, 'x')).toThrow(
      MissingSnippetMarkersError,
    )
    expect(() => pinnedScript('# Title\n')).toThrow(MissingSnippetMarkersError)
  })
})

// The SDK is built here (into a temporary folder, ~1 s) so a stale README fails `npm run
// test:unit` already; e2e/tests/supplyChain.spec.ts checks the stack's dist/sdk.js too.
test("README.md's embed snippet pins the sdk.js this source builds (else run `npm run sri`)", async () => {
  const outDir = await mkdtemp(join(tmpdir(), 'porthole-sdk-build-'))
  try {
    await build({
      root: PACKAGE_DIR,
      configFile: join(PACKAGE_DIR, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
    })
    const built = await readFile(join(outDir, 'sdk.js'))
    const { version } = JSON.parse(await readFile(join(PACKAGE_DIR, 'package.json'), 'utf8'))
    const pinned = pinnedScript(await readFile(README, 'utf8'))
    const expected = `sha384-${createHash('sha384').update(built).digest('base64')}`
    expect(pinned, 'README.md is stale: run `npm run sri`').toEqual({
      src: `${README_MODAL_URL}/sdk/${version}/sdk.js`,
      version,
      integrity: expected,
    })
  } finally {
    await rm(outDir, { recursive: true, force: true })
  }
}, 60_000)
