/**
 * Fake Wallet Standard wallets for the SDK's unit tests (not part of any build): a Solana
 * wallet whose "signatures" are recognisable bytes, and a Bitcoin wallet with `bitcoin:request`.
 * Each records the calls it got and can change its accounts.
 */
import type { StandardAccount, StandardWallet } from './standardTypes.js'

/** A deterministic 32-byte public key. */
export const publicKeyOf = (seed: number): Uint8Array =>
  Uint8Array.from({ length: 32 }, (_, i) => (seed * 31 + i * 7) % 256)

/** A fake "signature": 64 bytes of `fill`. */
export const fakeSignature = (fill: number): Uint8Array => new Uint8Array(64).fill(fill)

type Listener = (properties: { accounts?: readonly StandardAccount[] }) => void

/** A fake wallet and its controls. */
export type FakeWallet = StandardWallet & {
  calls: { feature: string; input: unknown }[]
  /** Replaces the granted accounts and emits `change`. */
  setAccounts(accounts: StandardAccount[]): void
  listeners: Set<Listener>
}

function base(
  name: string,
  chains: string[],
  granted: StandardAccount[],
  features: Record<string, unknown>,
): FakeWallet {
  const listeners = new Set<Listener>()
  const wallet: FakeWallet = {
    version: '1.0.0',
    name,
    icon: 'data:image/svg+xml,<svg/>',
    chains,
    accounts: [],
    calls: [],
    listeners,
    features: {
      'standard:connect': {
        version: '1.0.0',
        async connect(input?: { silent?: boolean }) {
          wallet.calls.push({ feature: 'standard:connect', input })
          ;(wallet as { accounts: readonly StandardAccount[] }).accounts = granted
          return { accounts: granted }
        },
      },
      'standard:events': {
        version: '1.0.0',
        on(_event: 'change', listener: Listener) {
          listeners.add(listener)
          return () => listeners.delete(listener)
        },
      },
      ...features,
    },
    setAccounts(accounts) {
      ;(wallet as { accounts: readonly StandardAccount[] }).accounts = accounts
      for (const listener of listeners) listener({ accounts })
    },
  }
  return wallet
}

/** An account on `chains`. */
export const accountOf = (address: string, seed: number, chains: string[]): StandardAccount => ({
  address,
  publicKey: publicKeyOf(seed),
  chains,
  features: [],
})

/**
 * A fake Solana wallet: signMessage answers `fakeSignature(7)`; signTransaction writes
 * `fakeSignature(9)` into the signer's slot of each transaction; signAndSendTransaction answers
 * `fakeSignature(5)`.
 */
export function fakeSolanaWallet(
  name = 'Fake Solana',
  accounts = [accountOf('SoLAddress1', 1, ['solana:localnet', 'solana:devnet'])],
  chains = ['solana:localnet', 'solana:devnet'],
): FakeWallet {
  const wallet: FakeWallet = base(name, chains, accounts, {
    'solana:signMessage': {
      version: '1.1.0',
      async signMessage(...inputs: { account: StandardAccount; message: Uint8Array }[]) {
        wallet.calls.push({ feature: 'solana:signMessage', input: inputs })
        return inputs.map((i) => ({ signedMessage: i.message, signature: fakeSignature(7) }))
      },
    },
    'solana:signTransaction': {
      version: '1.0.0',
      supportedTransactionVersions: ['legacy', 0],
      async signTransaction(...inputs: { account: StandardAccount; transaction: Uint8Array }[]) {
        wallet.calls.push({ feature: 'solana:signTransaction', input: inputs })
        return inputs.map((i) => ({ signedTransaction: signInto(i.transaction, i.account) }))
      },
    },
    'solana:signAndSendTransaction': {
      version: '1.0.0',
      supportedTransactionVersions: ['legacy', 0],
      async signAndSendTransaction(...inputs: unknown[]) {
        wallet.calls.push({ feature: 'solana:signAndSendTransaction', input: inputs })
        return inputs.map(() => ({ signature: fakeSignature(5) }))
      },
    },
  })
  return wallet
}

/** A fake Bitcoin wallet: `bitcoin:request` answers `{ method, params }` back. */
export function fakeBitcoinWallet(name = 'Fake Bitcoin'): FakeWallet {
  const wallet: FakeWallet = base(
    name,
    ['bitcoin:regtest'],
    [accountOf('bcrt1qfake', 3, ['bitcoin:regtest'])],
    {
      'bitcoin:request': {
        version: '1.0.0',
        async request(args: { method: string; params?: unknown }) {
          wallet.calls.push({ feature: 'bitcoin:request', input: args })
          return { echoed: args }
        },
      },
    },
  )
  return wallet
}

/**
 * A serialized legacy transaction (or a v0 one) with `signers` required signers whose keys are
 * `publicKeyOf(seed)` for each seed, empty signature slots.
 */
export function fakeTransaction(signerSeeds: number[], versioned = false): Uint8Array {
  const keys = [...signerSeeds.map(publicKeyOf), publicKeyOf(99)]
  const message = [
    ...(versioned ? [0x80] : []),
    signerSeeds.length,
    0,
    1,
    keys.length,
    ...keys.flatMap((k) => [...k]),
    ...new Uint8Array(32).fill(1), // recent blockhash
    0, // no instructions
  ]
  return Uint8Array.from([
    signerSeeds.length,
    ...new Uint8Array(64 * signerSeeds.length),
    ...message,
  ])
}

/** Writes `fakeSignature(9)` into `account`'s signature slot (found by key). */
function signInto(transaction: Uint8Array, account: StandardAccount): Uint8Array {
  const count = transaction[0] ?? 0
  const signed = transaction.slice()
  let offset = 1 + 64 * count
  if ((signed[offset] ?? 0) & 0x80) offset++
  offset += 4
  for (let i = 0; i < count; i++) {
    const key = signed.subarray(offset + 32 * i, offset + 32 * i + 32)
    if (key.every((b, j) => b === account.publicKey[j])) signed.set(fakeSignature(9), 1 + 64 * i)
  }
  return signed
}
