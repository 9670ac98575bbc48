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
