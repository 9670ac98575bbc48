/**
 * Generates the API's image assets (SVG) into apps/api/assets, with no network access:
 * - wallets/<image_id>.svg: a monogram per catalogue wallet (brand colour, rounded square,
 *   white initials in the system sans-serif);
 * - networks/<id>.svg: network and namespace badges (`eip155-1`, `solana`, …);
 * - currencies/<code>.svg and tokens/<symbol>.svg: round symbol badges.
 *
 * Run: `npx tsx apps/api/scripts/generate-assets.ts`. The output is committed; re-run after
 * editing `src/catalogue/wallets.json` or the lists below. Stale files are removed.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { loadCatalogue } from '../src/catalogue/catalogue.js'

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

function writeAll(kind: string, badges: Badge[], shape: string): void {
  const dir = `${ASSETS}${kind}/`
  mkdirSync(dir, { recursive: true })
  const wanted = new Set(badges.map((badge) => `${badge.id}.svg`))
  for (const file of readdirSync(dir)) if (!wanted.has(file)) rmSync(`${dir}${file}`)
  for (const badge of badges) writeFileSync(`${dir}${badge.id}.svg`, svg(shape, badge))
  console.log(`${kind}: ${badges.length} files`)
}

const wallets: Badge[] = loadCatalogue().map((wallet) => ({
  id: wallet.image_id,
  label: wallet.monogram ?? initials(wallet.name),
  title: wallet.name,
  background: wallet.color,
}))

writeAll('wallets', wallets, ROUNDED_SQUARE)
writeAll('networks', NETWORKS, CIRCLE)
writeAll('currencies', CURRENCIES, CIRCLE)
writeAll('tokens', TOKENS, CIRCLE)
