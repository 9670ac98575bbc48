/**
 * Which brand logo each image id gets, from two maintained icon sets installed in apps/api:
 * `@web3icons/core` (MIT: wallets, exchanges, networks, tokens; its "background" variant, the
 * logo on its brand colour filling the square) and `simple-icons` (CC0: one-colour glyphs, drawn
 * here on their brand colour). Only generate-assets.ts reads this, at build time: the API serves
 * the files it writes and never loads either package.
 *
 * An id missing here keeps its generated monogram (a wallet neither set has, a devnet, a
 * currency).
 */
import {
  type SimpleIcon as SimpleIconData,
  siApple,
  siBrave,
  siDiscord,
  siFacebook,
  siFarcaster,
  siGithub,
  siGoogle,
  siRobinhood,
  siX,
} from 'simple-icons'

/** A logo of `@web3icons/core`: its folder (`wallets`, …) and file name. */
export type Web3Icon = {
  set: 'web3icons'
  folder: 'wallets' | 'exchanges' | 'networks' | 'tokens'
  name: string
}
/** A glyph of `simple-icons` (its export, e.g. `siGoogle`). */
export type SimpleIcon = { set: 'simple-icons'; icon: SimpleIconData }
/** Where a logo comes from. */
export type BrandSource = Web3Icon | SimpleIcon

const wallet = (name: string): Web3Icon => ({ set: 'web3icons', folder: 'wallets', name })
// A few wallets carry their company's mark, which the set files under exchanges.
const exchange = (name: string): Web3Icon => ({ set: 'web3icons', folder: 'exchanges', name })
const network = (name: string): Web3Icon => ({ set: 'web3icons', folder: 'networks', name })
const token = (name: string): Web3Icon => ({ set: 'web3icons', folder: 'tokens', name })
const simple = (icon: SimpleIconData): SimpleIcon => ({ set: 'simple-icons', icon })

/** Catalogue wallets (`image_id` in src/catalogue/wallets.json). */
export const WALLET_LOGOS: Record<string, BrandSource> = {
  metamask: wallet('metamask'),
  trust: wallet('trust'),
  coinbase: wallet('coinbase'),
  okx: wallet('okx'),
  rainbow: wallet('rainbow'),
  phantom: wallet('phantom'),
  'ledger-live': wallet('ledger'),
  uniswap: exchange('uniswap'),
  binance: exchange('binance'),
  zerion: wallet('zerion'),
  rabby: wallet('rabby'),
  safe: wallet('safe'),
  tokenpocket: wallet('token-pocket'),
  imtoken: wallet('imtoken'),
  exodus: wallet('exodus'),
  oneinch: exchange('1inch'),
  argent: wallet('argent'),
  'crypto-com-defi': exchange('crypto-com'),
  brave: simple(siBrave),
  backpack: wallet('backpack'),
  solflare: wallet('solflare'),
  keplr: wallet('keplr'),
  coin98: wallet('coin98'),
  zengo: wallet('zengo'),
  mew: wallet('my-ether-wallet'),
  enkrypt: wallet('enkrypt'),
  bybit: exchange('bybit'),
  kraken: wallet('kraken'),
  robinhood: simple(siRobinhood),
  ronin: wallet('ronin'),
  // Bitget Wallet carries its company's mark; SafePal, MathWallet and Frontier have no wallet
  // entry in the set, but their own tokens (SFP, MATH, FRONT) carry the wallet's logo.
  bitget: exchange('bitget'),
  safepal: token('SFP'),
  mathwallet: token('MATH'),
  frontier: token('FRONT'),
  // In neither set (monogram tiles): xverse, unstoppable, frame, taho, core (the set's CORE is
  // another project's token), onekey, magic-eden, leather.
}

/** Networks and namespaces, by asset id (the devnets get our own mark, see generate-assets). */
export const NETWORK_LOGOS: Record<string, BrandSource> = {
  'eip155-1': network('ethereum'),
  'eip155-10': network('optimism'),
  'eip155-56': network('binance-smart-chain'),
  'eip155-100': network('gnosis'),
  'eip155-137': network('polygon'),
  'eip155-250': network('fantom'),
  'eip155-324': network('zksync'),
  'eip155-8217': network('kaia'),
  'eip155-8453': network('base'),
  'eip155-42161': network('arbitrum-one'),
  'eip155-43114': network('avalanche'),
  // Sepolia is Ethereum's test network and has no mark of its own.
  'eip155-11155111': network('ethereum'),
  'eip155-1313161554': network('aurora'),
  eip155: network('ethereum'),
  solana: network('solana'),
  'solana-5eykt4usfv8p8njdtrepy1vzqkqzkvdp': network('solana'),
  bip122: network('bitcoin'),
  'bip122-000000000019d6689c085ae165831e93': network('bitcoin'),
  polkadot: network('polkadot'),
  // The set's `cosmos` network is a newer mark few recognise; the ATOM atom is the familiar one.
  cosmos: token('ATOM'),
}

/** Tokens, by lower-case symbol. */
export const TOKEN_LOGOS: Record<string, BrandSource> = {
  eth: token('ETH'),
  usdc: token('USDC'),
  usdt: token('USDT'),
  dai: token('DAI'),
  wbtc: token('WBTC'),
  btc: token('BTC'),
  sol: token('SOL'),
  pol: token('POL'),
  matic: token('MATIC'),
  bnb: token('BNB'),
  // The set's ARB token file is another project's mark; the Arbitrum network's is ARB's own.
  arb: network('arbitrum-one'),
  op: token('OP'),
  avax: token('AVAX'),
  link: token('LINK'),
  uni: token('UNI'),
}

/** Social login providers, by the modal's provider name. */
export const SOCIAL_LOGOS: Record<string, BrandSource> = {
  google: simple(siGoogle),
  x: simple(siX),
  discord: simple(siDiscord),
  farcaster: simple(siFarcaster),
  github: simple(siGithub),
  apple: simple(siApple),
  facebook: simple(siFacebook),
}

/** Relative luminance of `#rrggbb` (WCAG), to pick a glyph colour that reads on it. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const value = Number.parseInt(hex.slice(i, i + 2), 16) / 255
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
}

/**
 * A `@web3icons/core` SVG without the clip path that only trims the drawing to its own 24×24
 * square (the image's edge does that already): a third smaller for the smallest logos.
 */
function withoutSquareClip(svg: string): string {
  const match =
    /<g clip-path="url\(#([\w-]+)\)">([\s\S]*)<\/g><defs><clipPath id="\1"><path fill="#fff" d="M0 0h24v24H0z"\/><\/clipPath><\/defs>/.exec(
      svg,
    )
  return match ? svg.replace(match[0], match[2]!) : svg
}

/** A logo's markup, before sanitizing; `sanitize` is applied to the set's own file first. */
export async function brandSvg(
  source: BrandSource,
  sanitize: (svg: string) => string,
): Promise<string> {
  if (source.set === 'web3icons') {
    const module = (await import(
      `@web3icons/core/svgs/${source.folder}/background/${source.name}.svg.js`
    )) as { default: string }
    return withoutSquareClip(sanitize(module.default))
  }
  const { icon } = source
  const glyph = luminance(icon.hex) > 0.4 ? '#000' : '#FFF'
  // The glyph at 14 of 24 units, centred on the brand colour.
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">',
    `<path fill="#${icon.hex}" d="M0 0h24v24H0z"/>`,
    `<path fill="${glyph}" transform="translate(5 5) scale(.58333)" d="${icon.path}"/>`,
    '</svg>',
  ].join('')
}

/** The file a source names inside its package, for the notices. */
export function sourceFile(source: BrandSource): string {
  return source.set === 'web3icons'
    ? `@web3icons/core dist/svgs/${source.folder}/background/${source.name}.svg`
    : `simple-icons icons/${source.icon.slug}.svg`
}

/** A source's brand name, for the notices. */
export function sourceTitle(source: BrandSource): string {
  return source.set === 'web3icons' ? source.name : source.icon.title
}
