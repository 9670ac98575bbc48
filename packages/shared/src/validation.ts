/**
 * Input checks from the spec's validation rules (§5).
 */

/** An EVM address: 40 hex characters with an optional 0x prefix. */
export function isEvmAddress(value: string): boolean {
  return /^(0x)?[0-9a-fA-F]{40}$/.test(value)
}

/** A Solana address: 32 to 44 base58 characters. */
export function isSolanaAddress(value: string): boolean {
  return /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)
}

/** A transaction hash: 0x plus 64 hex. */
export function isTransactionHash(value: string): boolean {
  return /^0x[0-9a-fA-F]{64}$/.test(value)
}

/** A signed message: 0x plus 62 or more hex. */
export function isSignature(value: string): boolean {
  return /^0x[0-9a-fA-F]{62,}$/.test(value)
}

/** An e-mail address in a valid format. */
export function isEmail(value: string): boolean {
  return (
    /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[A-Za-z]{2,}$/.test(value) && value.length <= 254
  )
}

/** The theme mode: light or dark. */
export function isThemeMode(value: unknown): value is 'light' | 'dark' {
  return value === 'light' || value === 'dark'
}

/**
 * A page address a window may be sent to: `https:`, or `http:` on the loopback host only (the
 * local stack's providers). Never `javascript:`, `data:`, `blob:`, `file:` or a relative or
 * malformed address, which would run or read on the origin that opened the window.
 *
 * @example
 * isWebPageUrl('https://pay.example.com/checkout') // true
 * isWebPageUrl('javascript:alert(1)') // false
 */
export function isWebPageUrl(value: string): boolean {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  // The browser parses a navigation's address the same way (WHATWG URL): what counts is the
  // parsed scheme, whatever spaces, case or tabs the string hides it behind.
  if (url.username || url.password) return false
  if (url.protocol === 'https:') return true
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return (
    url.protocol === 'http:' &&
    (host === 'localhost' ||
      host.endsWith('.localhost') ||
      host === '::1' ||
      /^127(\.\d{1,3}){3}$/.test(host))
  )
}
