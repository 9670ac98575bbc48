/**
 * WalletConnect deep links (issue 4): a wallet's native scheme (`metamask://wc?uri=…`) or its
 * universal link (`https://metamask.app.link/wc?uri=…`), opened from the host's top window.
 */

/** A wallet's links from the catalogue. */
export type WalletLinks = { mobileLink?: string | undefined; universalLink?: string | undefined }

/**
 * The link that opens `uri` in the wallet: the universal link when asked for (or when there
 * is no native scheme), else the native one; null when the wallet has neither (or a link is
 * not a safe URL).
 *
 * @example
 * walletConnectLink('wc:ab@2?…', { mobileLink: 'metamask://' }) // 'metamask://wc?uri=wc%3Aab%402%3F…'
 */
export function walletConnectLink(
  uri: string,
  links: WalletLinks,
  preferUniversal = false,
): { url: string; target: '_self' | '_blank' } | null {
  const encoded = encodeURIComponent(uri)
  const universal = links.universalLink?.trim()
  const native = links.mobileLink?.trim()
  const useUniversal = universal && /^https:\/\//i.test(universal) && (preferUniversal || !native)
  if (useUniversal)
    return { url: `${universal.replace(/\/+$/, '')}/wc?uri=${encoded}`, target: '_blank' }
  if (!native) return null
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(native)?.[1]?.toLowerCase()
  if (!scheme || ['javascript', 'data', 'vbscript', 'file', 'blob'].includes(scheme)) return null
  // 'metamask:' and 'metamask://' become 'metamask://wc?uri=…'; 'trust://open/' 'trust://open/wc?uri=…'.
  const rest = native
    .slice(scheme.length + 1)
    .replace(/^\/\//, '')
    .replace(/\/+$/, '')
  const base = rest ? `${scheme}://${rest}/` : `${scheme}://`
  return { url: `${base}wc?uri=${encoded}`, target: '_self' }
}
