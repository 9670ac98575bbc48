/**
 * The message a wallet's own key signs to replace its key shares at the API (`PUT
 * /auth/v1/shares`). The wallet frame signs it inside the signer Worker and the API checks it, so a
 * stolen session (or anyone but the key holder) can neither brick a wallet with junk shares nor
 * swap in shares of its own. `replaces` makes each signature good for one transition only.
 */
import { sha256, stringToBytes } from 'viem'

/** Parameters of {@link sharesMessage}. */
export type SharesMessageParameters = {
  projectId: string
  /** The wallet's address (any case). */
  address: string
  /** The set being replaced, or `null` for a user's first set. */
  replaces: string | null
  /** The new set's id. */
  setId: string
  /** The new auth share (base64). */
  authShare: string
  /** How the new recovery share is kept, and its ciphertext. */
  recovery: { kind: string; ciphertext: string; credentialId?: string }
}

/**
 * The EIP-191 message text for a share replacement: every field the API stores, hashed where long.
 *
 * @example
 * const message = sharesMessage({ projectId, address, replaces: null, setId, authShare, recovery })
 * const signature = await account.signMessage({ message })
 */
export function sharesMessage(parameters: SharesMessageParameters): string {
  const { projectId, address, replaces, setId, authShare, recovery } = parameters
  const digest = (text: string) => sha256(stringToBytes(text))
  return [
    'Porthole: replace the key shares of this wallet',
    `Wallet: ${address.toLowerCase()}`,
    `Project: ${projectId}`,
    `Replaces: ${replaces ?? 'none'}`,
    `New set: ${setId}`,
    `Auth share: ${digest(authShare)}`,
    `Recovery: ${recovery.kind} ${digest(recovery.ciphertext)}${recovery.credentialId ? ` ${recovery.credentialId}` : ''}`,
  ].join('\n')
}
