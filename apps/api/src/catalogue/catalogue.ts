import { readFileSync } from 'node:fs'
import { z } from 'zod'

/** A CAIP-2 network id (`namespace:reference`). */
export const CaipNetworkId = z.string().regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/)

/** A WalletConnect explorer id: 64 lower-case hex characters. */
export const WalletId = z.string().regex(/^[0-9a-f]{64}$/)

/** An image id: a lower-case slug that names a file under `assets/wallets`. */
export const ImageId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/)

/** How an injected provider identifies itself (explorer `injected` entry). */
export const InjectedId = z.strictObject({
  namespace: z.string().min(1),
  injected_id: z.string().min(1),
})

/** The certification badge of a wallet. */
export const BadgeType = z.enum(['certified', 'none'])
/** The certification badge of a wallet. */
export type BadgeType = z.infer<typeof BadgeType>

const link = z.url().nullable()

/**
 * One entry of `wallets.json`. `idSource` says whether `id` is the wallet's real WalletConnect
 * explorer id (`walletconnect`) or `sha256(name)` because none could be confirmed (`derived`).
 * `color` and `monogram` feed the logo generator (scripts/generate-assets.ts).
 */
export const CatalogueWallet = z.strictObject({
  id: WalletId,
  idSource: z.enum(['walletconnect', 'derived']),
  name: z.string().min(1).max(100),
  image_id: ImageId,
  homepage: link,
  rdns: z
    .string()
    .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i)
    .nullable(),
  order: z.number().int().positive(),
  badge_type: BadgeType,
  chains: z.array(CaipNetworkId).min(1),
  mobile_link: z.string().min(1).nullable(),
  universal_link: link,
  desktop_link: z.string().min(1).nullable(),
  webapp_link: link,
  app_store: link,
  play_store: link,
  injected: z.array(InjectedId).min(1).nullable(),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  monogram: z.string().min(1).max(3).optional(),
})
/** One entry of the wallet catalogue. */
export type CatalogueWallet = z.infer<typeof CatalogueWallet>

/**
 * Reads and validates the wallet catalogue (`wallets.json` beside this file).
 *
 * @example
 * const wallets = loadCatalogue()
 * wallets[0]?.name // 'MetaMask'
 */
export function loadCatalogue(
  file: URL | string = new URL('./wallets.json', import.meta.url),
): CatalogueWallet[] {
  const wallets = z.array(CatalogueWallet).parse(JSON.parse(readFileSync(file, 'utf8')))
  const ids = new Set(wallets.map((wallet) => wallet.id))
  if (ids.size !== wallets.length) throw new Error('wallets.json: duplicate wallet id')
  return wallets
}
