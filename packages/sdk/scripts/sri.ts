/// <reference types="node" />
/**
 * Prints the embed snippet of the `sdk.js` just built: its versioned URL and its Subresource
 * Integrity hash. Runs at the end of `npm run build -w @porthole/sdk`.
 *
 *   tsx scripts/sri.ts                     print the snippet
 *   tsx scripts/sri.ts --write README.md   also write it into README.md between the markers
 *
 * `npm run sri` (at the repository root) builds the SDK and writes README.md.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  embedSnippet,
  pinnedScript,
  README_MODAL_URL,
  readmeWithSnippet,
  subresourceIntegrity,
} from './embedSnippet.ts'

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const { version } = JSON.parse(readFileSync(`${packageDir}package.json`, 'utf8')) as {
  version: string
}
const integrity = subresourceIntegrity(readFileSync(`${packageDir}dist/sdk.js`))
const snippet = embedSnippet({ modalUrl: README_MODAL_URL, version, integrity })

const writeIndex = process.argv.indexOf('--write')
if (writeIndex < 0) {
  console.log(`\nsdk.js ${version}: ${integrity}`)
  console.log(
    `Embed snippet (${README_MODAL_URL} is your modal origin; \`npm run sri\` writes it into README.md):\n`,
  )
  console.log(`${snippet}\n`)
} else {
  const readmeFile = process.argv[writeIndex + 1]
  if (!readmeFile) throw new Error('--write needs the README file')
  const readme = readFileSync(readmeFile, 'utf8')
  const before = pinnedScript(readme)
  const updated = readmeWithSnippet(readme, snippet)
  if (updated === readme) console.log(`${readmeFile}: embed snippet already pins ${integrity}`)
  else {
    writeFileSync(readmeFile, updated)
    console.log(`${readmeFile}: embed snippet now pins sdk.js ${version} (${integrity})`)
  }
  if (before.version === version && before.integrity && before.integrity !== integrity)
    console.warn(
      `Warning: sdk.js changed but its version is still ${version}. If ${version} was released, ` +
        'bump the version in packages/sdk/package.json: /sdk/<version>/sdk.js is cached as ' +
        'immutable and pinned by host pages, so a released version must never serve other bytes.',
    )
}
