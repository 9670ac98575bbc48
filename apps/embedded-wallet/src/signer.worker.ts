/**
 * The signer: the only place the private key exists. It runs in a dedicated Worker of the
 * wallet frame (no DOM, no network), is driven through comlink, and hands out key shares (each
 * useless alone), addresses and signatures — and the key itself only for the frame's export card.
 * The wallet's Solana key is derived here from the same secret (`solanaKeyOf`) and lives only
 * here too.
 */
import {
  type DeviceRemovalMessageParameters,
  deviceRemovalDigest,
  type SharesMessageParameters,
  sharesDigest,
} from '@porthole/shared'
import { expose } from 'comlink'
import { bytesToHex, type Hex, type TransactionSerializable, type TypedDataDefinition } from 'viem'
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { createKey, rebuildKey, type SolanaKey, shareAt, solanaKeyOf } from './keys.js'
import * as SolanaSign from './solanaSign.js'

let account: PrivateKeyAccount | undefined
let secret: Uint8Array | undefined
let solana: SolanaKey | undefined
/** Two shares of the loaded key, so more points of its share set can be made. */
let held: [Uint8Array, Uint8Array] | undefined
/** A new key made ahead of a sign-in that may create one (see `prepare`); never loaded. */
let spare: ReturnType<typeof createKey> | undefined

function hold(key: Uint8Array, shares: [Uint8Array, Uint8Array]): string {
  secret = key
  held = shares
  account = privateKeyToAccount(bytesToHex(key))
  solana?.seed.fill(0)
  solana = solanaKeyOf(key)
  return account.address
}

function signer(): PrivateKeyAccount {
  if (!account) throw new Error('No wallet loaded')
  return account
}

function solanaSigner(): SolanaKey {
  if (!solana) throw new Error('No wallet loaded')
  return solana
}

/** What the frame's main thread may ask of the signer. */
const api = {
  /**
   * Makes the key a sign-in may need next, while the user types the code: kept here, unused,
   * until {@link api.create} takes it (a returning user's sign-in never does).
   */
  prepare(): void {
    spare ??= createKey()
    spare.catch(() => {
      spare = undefined
    })
  },
  /** Creates a new key, keeps it, and returns its address and three shares (2-of-3). */
  async create(): Promise<{ address: string; shares: Uint8Array[] }> {
    const made = spare ?? createKey()
    spare = undefined
    const { key, shares } = await made
    return { address: hold(key, [shares[0] as Uint8Array, shares[1] as Uint8Array]), shares }
  },
  /** Rebuilds the key from two shares and keeps it; returns its address. */
  async restore(a: Uint8Array, b: Uint8Array): Promise<string> {
    return hold((await rebuildKey(a, b)).key, [a, b])
  },
  /**
   * The share at `x` of the loaded key's share set: a new device's copy of the device share, or
   * a new recovery share (the auth and device shares stay valid).
   */
  shareAt(x: number): Promise<Uint8Array> {
    if (!held) throw new Error('No wallet loaded')
    return shareAt(held, x)
  },
  address(): string | null {
    return account?.address ?? null
  },
  signMessage(message: string | { raw: Hex }): Promise<Hex> {
    return signer().signMessage({ message })
  },
  signTypedData(typed: TypedDataDefinition): Promise<Hex> {
    return signer().signTypedData(typed)
  },
  signTransaction(transaction: TransactionSerializable): Promise<Hex> {
    return signer().signTransaction(transaction)
  },
  /** The Solana address (base58) derived from the loaded key, or null. */
  solanaAddress(): string | null {
    return solana?.address ?? null
  },
  /** ed25519 signature of an approved message; refuses bytes that are a transaction message. */
  signSolanaMessage(message: Uint8Array): Uint8Array {
    return SolanaSign.signMessage(solanaSigner(), message)
  },
  /** ed25519 signature of an approved transaction message whose fee payer is this wallet. */
  signSolanaTransaction(messageBytes: Uint8Array): Uint8Array {
    return SolanaSign.signTransaction(solanaSigner(), messageBytes)
  },
  /**
   * Signs a share replacement for the API (`sharesDigest`: EIP-191 version 0x00, which no dapp
   * request can produce). Only this digest: the Worker signs no raw hash it is handed.
   */
  signShares(parameters: SharesMessageParameters): Promise<Hex> {
    return signer().sign({ hash: sharesDigest(parameters) })
  },
  /** Signs the removal of one of the wallet's devices (`deviceRemovalDigest`, version 0x00). */
  signDeviceRemoval(parameters: DeviceRemovalMessageParameters): Promise<Hex> {
    return signer().sign({ hash: deviceRemovalDigest(parameters) })
  },
  /**
   * The private key, for the export card of this frame (never sent anywhere else). The EVM key
   * only: the Solana key derives from it (`solanaKeyOf`).
   */
  exportKey(): Hex {
    if (!secret) throw new Error('No wallet loaded')
    return bytesToHex(secret)
  },
  /** Forgets the key (sign-out). */
  clear(): void {
    secret?.fill(0)
    for (const share of held ?? []) share.fill(0)
    solana?.seed.fill(0)
    solana = undefined
    secret = undefined
    held = undefined
    account = undefined
  },
}

/** The signer's interface, for comlink's `wrap`. */
export type SignerApi = typeof api
/** The same object, for the unit test that runs it outside a Worker. */
export { api as signerApi }

expose(api)

// The first secp256k1 and ed25519 keys a Worker derives also build the curves' precomputed
// tables (~40 ms of a sign-in's key creation measured here): built now, on a throwaway secret,
// while the frame is loading, so neither a new user's key nor a restore waits for them.
setTimeout(() => {
  const throwaway = crypto.getRandomValues(new Uint8Array(32))
  privateKeyToAccount(bytesToHex(throwaway))
  solanaKeyOf(throwaway).seed.fill(0)
  throwaway.fill(0)
}, 0)
