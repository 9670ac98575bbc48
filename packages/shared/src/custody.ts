/**
 * The message a wallet's own key signs to replace its key shares at the API (`PUT
 * /auth/v1/shares`). The wallet frame signs it inside the signer Worker and the API checks it, so a
 * stolen session (or anyone but the key holder) can neither brick a wallet with junk shares nor
 * swap in shares of its own. `replaces` makes each signature good for one transition only.
 *
 * The signature is over an EIP-191 version 0x00 digest ("data with intended validator"), which no
 * request a dapp can make produces: `personal_sign` prefixes version 0x45, typed data 0x01, and the
 * wallet has no raw-hash signing. So a host page cannot trick the user into signing one.
 */
import { concat, type Hex, keccak256, sha256, stringToBytes, toHex } from 'viem'

/** The "intended validator" of share signatures: the first 20 bytes of keccak256('porthole:shares'). */
export const SHARES_VALIDATOR: Hex = keccak256(toHex('porthole:shares')).slice(0, 42) as Hex

/** Parameters of {@link sharesMessage}. */
export type SharesMessageParameters = {
  projectId: string
  /** The wallet's address (any case). */
  address: string
  /** The set being replaced, or `null` for a user's first set. */
  replaces: string | null
  /** The new set's id. */
  setId: string
  /** The device share's x coordinate. */
  deviceX: number
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
  const { projectId, address, replaces, setId, deviceX, authShare, recovery } = parameters
  const digest = (text: string) => sha256(stringToBytes(text))
  return [
    'Porthole: replace the key shares of this wallet',
    `Wallet: ${address.toLowerCase()}`,
    `Project: ${projectId}`,
    `Replaces: ${replaces ?? 'none'}`,
    `New set: ${setId}`,
    `Device share at: ${deviceX}`,
    `Auth share: ${digest(authShare)}`,
    `Recovery: ${recovery.kind} ${digest(recovery.ciphertext)}${recovery.credentialId ? ` ${recovery.credentialId}` : ''}`,
  ].join('\n')
}

/**
 * The digest the wallet key signs for a share replacement: EIP-191 version 0x00 with
 * {@link SHARES_VALIDATOR} over {@link sharesMessage}.
 *
 * @example
 * const signature = await account.sign({ hash: sharesDigest(parameters) })
 */
export function sharesDigest(parameters: SharesMessageParameters): Hex {
  return keccak256(concat(['0x1900', SHARES_VALIDATOR, toHex(sharesMessage(parameters))]))
}

/** The "intended validator" of device removals: the first 20 bytes of keccak256('porthole:devices'). */
export const DEVICES_VALIDATOR: Hex = keccak256(toHex('porthole:devices')).slice(0, 42) as Hex

/** Parameters of {@link deviceRemovalMessage}. */
export type DeviceRemovalMessageParameters = {
  projectId: string
  /** The wallet's address (any case). */
  address: string
  /** The device's id in the wallet's device list (`GET /auth/v1/devices`). */
  device: string
}

/**
 * The text a wallet's own key signs to remove one of its devices (`POST /auth/v1/devices/revoke`):
 * a session alone — a phished login, a new Farcaster custody without the wallet — cannot cut the
 * owner's devices off.
 *
 * @example
 * deviceRemovalMessage({ projectId: 'porthole-demo', address, device: 'Xq…' })
 */
export function deviceRemovalMessage({
  projectId,
  address,
  device,
}: DeviceRemovalMessageParameters): string {
  return [
    'Porthole: remove a device from this wallet',
    `Wallet: ${address.toLowerCase()}`,
    `Project: ${projectId}`,
    `Device: ${device}`,
  ].join('\n')
}

/**
 * The digest the wallet key signs to remove a device: EIP-191 version 0x00 with
 * {@link DEVICES_VALIDATOR} over {@link deviceRemovalMessage} (no dapp request produces it).
 *
 * @example
 * const signature = await account.sign({ hash: deviceRemovalDigest({ projectId, address, device }) })
 */
export function deviceRemovalDigest(parameters: DeviceRemovalMessageParameters): Hex {
  return keccak256(concat(['0x1900', DEVICES_VALIDATOR, toHex(deviceRemovalMessage(parameters))]))
}
