/**
 * Generates the API's image assets (SVG) into apps/api/assets, with no network access:
 * - wallets/<image_id>.svg: the wallet's logo (brandIcons.ts), else a monogram (brand colour,
 *   rounded square, white initials in the system sans-serif);
 * - networks/<id>.svg: network and namespace logos (`eip155-1`, `solana`, …), else badges; the
 *   devnets get a mark of our own;
 * - currencies/<code>.svg and tokens/<symbol>.svg: token logos, else round symbol badges;
 * - socials/<provider>.svg: the social login providers' logos;
 * - THIRD_PARTY_NOTICES.md: which file comes from which icon set, and the sets' licences.
 * Every file goes through the API's SVG sanitizer, as the API itself does when it loads them.
 *
 * Run: `npm run assets -w @porthole/api`. The output is committed; re-run after editing
 * `src/catalogue/wallets.json`, the lists below or brandIcons.ts. Stale files are removed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sanitizeSvg } from '../src/assets/sanitizeSvg.js'
import { loadCatalogue } from '../src/catalogue/catalogue.js'
import {
  type BrandSource,
  brandSvg,
  NETWORK_LOGOS,
  SOCIAL_LOGOS,
  sourceFile,
  sourceTitle,
  TOKEN_LOGOS,
  WALLET_LOGOS,
} from './brandIcons.js'

const ASSETS = fileURLToPath(new URL('../assets/', import.meta.url))
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"

type Badge = { id: string; label: string; title: string; background: string; color?: string }

/** Networks (spec §9 swap networks, the devnets) and namespaces, by asset id. */
const NETWORKS: Badge[] = [
  { id: 'eip155-1', label: 'ETH', title: 'Ethereum', background: '#627EEA' },
  { id: 'eip155-10', label: 'OP', title: 'OP Mainnet', background: '#FF0420' },
  {
    id: 'eip155-56',
    label: 'BNB',
    title: 'BNB Smart Chain',
    background: '#F0B90B',
    color: '#1E2026',
  },
  { id: 'eip155-100', label: 'GNO', title: 'Gnosis', background: '#04795B' },
  { id: 'eip155-137', label: 'POL', title: 'Polygon', background: '#8247E5' },
  { id: 'eip155-250', label: 'FTM', title: 'Fantom', background: '#1969FF' },
  { id: 'eip155-324', label: 'ZK', title: 'zkSync Era', background: '#1E1E1E' },
  { id: 'eip155-8217', label: 'KAIA', title: 'Kaia', background: '#BFF009', color: '#1E2026' },
  { id: 'eip155-8453', label: 'BASE', title: 'Base', background: '#0052FF' },
  { id: 'eip155-42161', label: 'ARB', title: 'Arbitrum One', background: '#213147' },
  { id: 'eip155-43114', label: 'AVAX', title: 'Avalanche', background: '#E84142' },
  {
    id: 'eip155-11155111',
    label: 'SEP',
    title: 'Sepolia',
    background: '#CFB5F0',
    color: '#1E2026',
  },
  {
    id: 'eip155-1313161554',
    label: 'AUR',
    title: 'Aurora',
    background: '#70D44B',
    color: '#1E2026',
  },
  { id: 'eip155-31337', label: 'DEV', title: 'Porthole Devnet', background: '#374151' },
  { id: 'eip155-31338', label: 'DEV2', title: 'Porthole Devnet B', background: '#4B5563' },
  { id: 'eip155', label: 'EVM', title: 'EVM networks', background: '#454A75' },
  { id: 'solana', label: 'SOL', title: 'Solana', background: '#9945FF' },
  {
    id: 'solana-5eykt4usfv8p8njdtrepy1vzqkqzkvdp',
    label: 'SOL',
    title: 'Solana',
    background: '#9945FF',
  },
  { id: 'bip122', label: 'BTC', title: 'Bitcoin', background: '#F7931A' },
  {
    id: 'bip122-000000000019d6689c085ae165831e93',
    label: 'BTC',
    title: 'Bitcoin',
    background: '#F7931A',
  },
  { id: 'polkadot', label: 'DOT', title: 'Polkadot', background: '#E6007A' },
  { id: 'cosmos', label: 'ATOM', title: 'Cosmos', background: '#2E3148' },
]

/** Fiat currencies, by lower-case ISO 4217 code. */
const CURRENCIES: Badge[] = [
  ['usd', '$', 'US Dollar'],
  ['eur', '€', 'Euro'],
  ['gbp', '£', 'Pound Sterling'],
  ['jpy', '¥', 'Japanese Yen'],
  ['cny', '¥', 'Chinese Yuan'],
  ['cad', 'C$', 'Canadian Dollar'],
  ['aud', 'A$', 'Australian Dollar'],
  ['chf', 'Fr', 'Swiss Franc'],
  ['inr', '₹', 'Indian Rupee'],
  ['brl', 'R$', 'Brazilian Real'],
  ['krw', '₩', 'South Korean Won'],
  ['sgd', 'S$', 'Singapore Dollar'],
  ['mxn', 'Mex$', 'Mexican Peso'],
  ['try', '₺', 'Turkish Lira'],
].map(([id, label, title]) => ({ id: id!, label: label!, title: title!, background: '#2F6F4F' }))

/** Tokens, by lower-case symbol. */
const TOKENS: Badge[] = [
  { id: 'eth', label: 'ETH', title: 'Ether', background: '#627EEA' },
  { id: 'weth', label: 'WETH', title: 'Wrapped Ether', background: '#4C5C9E' },
  { id: 'usdc', label: 'USDC', title: 'USD Coin', background: '#2775CA' },
  { id: 'usdt', label: 'USDT', title: 'Tether USD', background: '#26A17B' },
  { id: 'dai', label: 'DAI', title: 'Dai', background: '#F5AC37', color: '#1E2026' },
  { id: 'wbtc', label: 'WBTC', title: 'Wrapped Bitcoin', background: '#5A5564' },
  { id: 'btc', label: 'BTC', title: 'Bitcoin', background: '#F7931A' },
  { id: 'sol', label: 'SOL', title: 'Solana', background: '#9945FF' },
  { id: 'pol', label: 'POL', title: 'Polygon Ecosystem Token', background: '#8247E5' },
  { id: 'matic', label: 'MATIC', title: 'Polygon (MATIC)', background: '#8247E5' },
  { id: 'bnb', label: 'BNB', title: 'BNB', background: '#F0B90B', color: '#1E2026' },
  { id: 'arb', label: 'ARB', title: 'Arbitrum', background: '#213147' },
  { id: 'op', label: 'OP', title: 'Optimism', background: '#FF0420' },
  { id: 'avax', label: 'AVAX', title: 'Avalanche', background: '#E84142' },
  { id: 'link', label: 'LINK', title: 'Chainlink', background: '#2A5ADA' },
  { id: 'uni', label: 'UNI', title: 'Uniswap', background: '#E5006D' },
  { id: 'xdai', label: 'xDAI', title: 'xDAI', background: '#04795B' },
  // The devnet test tokens (apps/devnet) and the icon of tokens without one of their own.
  { id: 'pusd', label: 'pUSD', title: 'Porthole USD', background: '#0E9F6E' },
  { id: 'prt', label: 'PRT', title: 'Porthole Token', background: '#7C3AED' },
  { id: 'token', label: '?', title: 'Token', background: '#6B7280' },
]

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`)
}

/** Font size that keeps `label` inside a 96-unit tile. */
function fontSize(label: string): number {
  const length = [...label].length
  return length <= 1 ? 46 : length === 2 ? 40 : length === 3 ? 32 : length === 4 ? 25 : 20
}

function svg(shape: string, badge: Badge): string {
  const size = fontSize(badge.label)
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" role="img" aria-label="${escapeXml(badge.title)}">`,
    `<title>${escapeXml(badge.title)}</title>`,
    shape.replace('FILL', badge.background),
    `<text x="48" y="48" dy="0.35em" text-anchor="middle" font-family="${FONT}" font-size="${size}" font-weight="700" fill="${badge.color ?? '#FFFFFF'}">${escapeXml(badge.label)}</text>`,
    '</svg>',
    '',
  ].join('\n')
}

const ROUNDED_SQUARE = '<rect width="96" height="96" rx="22" ry="22" fill="FILL"/>'
const CIRCLE = '<circle cx="48" cy="48" r="48" fill="FILL"/>'

/** Initials of a name: the first letters of its first two words (camelCase splits words). */
function initials(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word && !/^(wallet|web3|defi|com)$/i.test(word))
  return (
    words
      .slice(0, 2)
      .map((word) => word[0]!.toUpperCase())
      .join('') || '?'
  )
}

/**
 * The devnets' mark (ours): a terminal prompt on a slate square, one shade per devnet. The
 * prompt's geometry is ours, drawn for these files.
 */
function devnetSvg(background: string): string {
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">',
    `<path fill="${background}" d="M0 0h24v24H0z"/>`,
    '<path fill="none" stroke="#FFF" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" d="M6 8l4 4-4 4m6 0h6"/>',
    '</svg>',
  ].join('')
}

/** Our own marks, by network asset id. */
const OWN_NETWORK_MARKS: Record<string, string> = {
  'eip155-31337': devnetSvg('#374151'),
  'eip155-31338': devnetSvg('#4B5563'),
}

/** Every file taken from an icon set, for the notices: `<kind>/<id>.svg` → its source. */
const shipped: [file: string, source: BrandSource][] = []

async function writeAll(
  kind: string,
  badges: Badge[],
  shape: string,
  logos: Record<string, BrandSource> = {},
  own: Record<string, string> = {},
): Promise<void> {
  const dir = `${ASSETS}${kind}/`
  mkdirSync(dir, { recursive: true })
  const wanted = new Set(badges.map((badge) => `${badge.id}.svg`))
  for (const file of readdirSync(dir)) if (!wanted.has(file)) rmSync(`${dir}${file}`)
  let brands = 0
  for (const badge of badges) {
    const source = logos[badge.id]
    let body = own[badge.id] ?? svg(shape, badge)
    if (source) {
      body = await brandSvg(source, sanitizeSvg)
      shipped.push([`${kind}/${badge.id}.svg`, source])
      brands++
    }
    writeFileSync(`${dir}${badge.id}.svg`, `${sanitizeSvg(body)}\n`)
  }
  const unknown = Object.keys(logos).filter((id) => !badges.some((badge) => badge.id === id))
  if (unknown.length) throw new Error(`${kind}: logos for unknown ids ${unknown.join(', ')}`)
  console.log(`${kind}: ${badges.length} files, ${brands} brand logos`)
}

/** Social login providers (the modal's names), titled for the monogram they never need. */
const SOCIALS: Badge[] = Object.keys(SOCIAL_LOGOS).map((id) => ({
  id,
  label: id[0]!.toUpperCase(),
  title: id,
  background: '#6B7280',
}))

const require = createRequire(import.meta.url)

/** An installed package's version (neither set exports its package.json: found from its entry). */
function packageVersion(name: string): string {
  let dir = dirname(require.resolve(name))
  for (;;) {
    const file = `${dir}/package.json`
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string }
      if (json.name === name) return json.version
    }
    if (dirname(dir) === dir) throw new Error(`${name}: no package.json`)
    dir = dirname(dir)
  }
}

/** THIRD_PARTY_NOTICES.md: the sets, their licences, and each file taken from them. */
function writeNotices(): void {
  const web3icons = shipped.filter(([, source]) => source.set === 'web3icons')
  const simple = shipped.filter(([, source]) => source.set === 'simple-icons')
  const rows = (list: typeof shipped) =>
    list
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([file, source]) => `| \`${file}\` | ${sourceTitle(source)} | \`${sourceFile(source)}\` |`,
      )
      .join('\n')
  const text = `# Third-party notices: image assets

Generated by \`scripts/generate-assets.ts\`; do not edit by hand. The API serves the files below
(sanitized and minified from the icon sets' SVGs, the Simple Icons glyphs drawn on their brand
colour); every other image under \`assets/\` is Porthole's own (generated monograms and badges,
the devnet mark). Logos are trademarks of their owners, shown only to name their products; the
licences below cover the drawings, not the marks.

## Web3 Icons (\`@web3icons/core\` ${packageVersion('@web3icons/core')})

https://github.com/0xa3k5/web3icons, MIT License:

> MIT License
>
> Copyright (c) 2024 0xa3k5
>
> Permission is hereby granted, free of charge, to any person obtaining a copy
> of this software and associated documentation files (the "Software"), to deal
> in the Software without restriction, including without limitation the rights
> to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
> copies of the Software, and to permit persons to whom the Software is
> furnished to do so, subject to the following conditions:
>
> The above copyright notice and this permission notice shall be included in all
> copies or substantial portions of the Software.
>
> THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
> IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
> FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
> AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
> LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
> OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
> SOFTWARE.

| file | logo | source |
| --- | --- | --- |
${rows(web3icons)}

## Simple Icons (\`simple-icons\` ${packageVersion('simple-icons')})

https://github.com/simple-icons/simple-icons, CC0 1.0 Universal
(https://creativecommons.org/publicdomain/zero/1.0/). None of the glyphs below carries a licence
of its own in the set's data; their brands' guidelines are linked from https://simpleicons.org.

| file | logo | source |
| --- | --- | --- |
${rows(simple)}
`
  writeFileSync(`${ASSETS}THIRD_PARTY_NOTICES.md`, text)
  console.log(`THIRD_PARTY_NOTICES.md: ${shipped.length} files`)
}

const wallets: Badge[] = loadCatalogue().map((wallet) => ({
  id: wallet.image_id,
  label: wallet.monogram ?? initials(wallet.name),
  title: wallet.name,
  background: wallet.color,
}))

await writeAll('wallets', wallets, ROUNDED_SQUARE, WALLET_LOGOS)
await writeAll('networks', NETWORKS, CIRCLE, NETWORK_LOGOS, OWN_NETWORK_MARKS)
await writeAll('currencies', CURRENCIES, CIRCLE)
await writeAll('tokens', TOKENS, CIRCLE, TOKEN_LOGOS)
await writeAll('socials', SOCIALS, ROUNDED_SQUARE, SOCIAL_LOGOS)
writeNotices()
