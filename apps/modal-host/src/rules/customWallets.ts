import type { CustomWallet } from '@porthole/protocol'
import type { WalletEntry } from '../store/types.js'

/**
 * A dapp's own wallet (`customWallets`) as lists show it: it pairs over WalletConnect, its
 * `mobile_link` opening it on a phone (an https link is a universal link, else a native scheme).
 *
 * @example
 * fromCustomWallet({ id: 'acme', name: 'Acme Wallet', mobile_link: 'acme://' })
 * // { id: 'acme', name: 'Acme Wallet', image: '', mobileLink: 'acme://' }
 */
export function fromCustomWallet(wallet: CustomWallet): WalletEntry {
  const link = wallet.mobile_link
  return {
    id: wallet.id,
    name: wallet.name,
    image: wallet.image_url ?? '',
    ...(wallet.homepage ? { homepage: wallet.homepage } : {}),
    ...(link ? (/^https:/i.test(link) ? { universalLink: link } : { mobileLink: link }) : {}),
  }
}
