/**
 * Porthole Solana Dev Wallet: a real, minimal browser wallet for the local Solana chain, for
 * development and tests. It registers through the Wallet Standard, holds a test key (the local
 * chain's funded test account 0 by default), signs with ed25519 (`@noble/curves`), sends to the
 * chain's JSON-RPC (`sendTransaction`), and asks before every request (a prompt, or a mode set by
 * a test). Never use it with a real key.
 *
 * Features, with the Wallet Standard shapes: `standard:connect`, `standard:disconnect`,
 * `standard:events`, `solana:signMessage` (`{ account, message }` → `[{ signedMessage,
 * signature }]`), `solana:signTransaction` (`{ account, transaction }` → `[{ signedTransaction
 * }]`, legacy and v0) and `solana:signAndSendTransaction` (→ `[{ signature }]`).
 *
 * Configure before the script runs: `window.portholeSolanaDevWalletConfig = { seed, rpcUrl,
 * mode }` (`seed`: 32-byte ed25519 seed, hex); steer it later through
 * `window.portholeSolanaDevWallet` (`setMode`, `switchAccount`, `disconnect`).
 */
import { ed25519 } from '@noble/curves/ed25519'
import { SOLANA_TEST_ACCOUNTS } from '@porthole/shared'
import { base58, base64, hex } from '@scure/base'
import * as DevWalletKit from './devWalletKit.ts'

/** How the wallet answers a request that needs the user. */
export type SolanaDevWalletMode = DevWalletKit.Mode

/** `window.portholeSolanaDevWalletConfig`. */
export type SolanaDevWalletConfig = {
  /** The key: a 32-byte ed25519 seed (hex). Default: the local chain's test accounts (0 first). */
  seed?: string
  /** Several keys (`switchAccount(i)` picks one); `seed` is the one-key form. */
  seeds?: string[]
  /** The local chain's JSON-RPC; default http://127.0.0.1:8899. */
  rpcUrl?: string
  /** Default: `prompt`. */
  mode?: SolanaDevWalletMode
}

/** The Wallet Standard chains the wallet declares: the local chain first. */
export const SOLANA_DEV_WALLET_CHAINS = ['solana:localnet', 'solana:devnet'] as const
const NAME = 'Porthole Solana Dev Wallet'
const STORE = 'porthole-solana-dev-wallet'
const DEFAULT_RPC = 'http://127.0.0.1:8899'
const DEVNET_RPC = 'https://api.devnet.solana.com'
const SYSTEM_PROGRAM = '11111111111111111111111111111111'
const ICON_SVG =
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='8' fill='#9945ff'/><path d='M9 11h12l2-2M23 16H11l-2 2M9 23h12l2-2' fill='none' stroke='white' stroke-width='2.5' stroke-linecap='round'/></svg>"
const FEATURES = [
  'solana:signAndSendTransaction',
  'solana:signTransaction',
  'solana:signMessage',
] as const

const error = DevWalletKit.error
const invalidParams = DevWalletKit.invalidParams

/** A key of the wallet. */
export type DevSolanaKey = { seed: Uint8Array; publicKey: Uint8Array; address: string }

/**
 * The key of a 32-byte ed25519 seed (hex).
 *
 * @example
 * solanaKeyOf(SOLANA_TEST_ACCOUNTS[0].seed).address // '61UAJ1bKEr1fAZrwXYvvdCvExdMQHA7meRCN4txEvjys'
 */
export function solanaKeyOf(seedHex: string): DevSolanaKey {
  const seed = hex.decode(seedHex)
  if (seed.length !== 32) throw new Error('A Solana seed is 32 bytes (64 hex characters)')
  const publicKey = ed25519.getPublicKey(seed)
  return { seed, publicKey, address: base58.encode(publicKey) }
}

/** One instruction of a parsed message. */
export type ParsedInstruction = { programId: string; accounts: string[]; data: Uint8Array }

/** A serialized transaction, read: where its message is, who signs it, what it does. */
export type ParsedTransaction = {
  version: 'legacy' | 0
  /** Signature slots, in signer order. */
  signatures: Uint8Array[]
  /** The signed bytes (the message), and where they start in the transaction. */
  message: Uint8Array
  messageOffset: number
  /** The required signers' addresses, fee payer first. */
  signers: string[]
  /** The static account keys (v0 lookups are not resolved). */
  accountKeys: string[]
  instructions: ParsedInstruction[]
}

/** Reads a compact-u16 at `offset`: [value, next offset]. */
function shortVec(bytes: Uint8Array, offset: number): [number, number] {
  let value = 0
  for (let size = 0; size < 3; size++) {
    const byte = bytes[offset + size]
    if (byte === undefined) throw invalidParams('Truncated transaction')
    value |= (byte & 0x7f) << (7 * size)
    if (!(byte & 0x80)) return [value, offset + size + 1]
  }
  throw invalidParams('Bad length in transaction')
}

/**
 * Reads a serialized Solana transaction (wire format, legacy or v0).
 *
 * @example
 * parseTransaction(bytes).signers[0] // the fee payer
 */
export function parseTransaction(bytes: Uint8Array): ParsedTransaction {
  const take = (offset: number, length: number) => {
    if (offset + length > bytes.length) throw invalidParams('Truncated transaction')
    return bytes.subarray(offset, offset + length)
  }
  let [count, offset] = shortVec(bytes, 0)
  const signatures = Array.from({ length: count }, (_, i) => take(offset + 64 * i, 64))
  offset += 64 * count
  const messageOffset = offset
  const first = take(offset, 1)[0] ?? 0
  const version = first & 0x80 ? first & 0x7f : 'legacy'
  if (version !== 'legacy' && version !== 0)
    throw invalidParams(`Unsupported transaction version ${version}`)
  if (version === 0) offset++
  const [required] = take(offset, 3)
  offset += 3
  ;[count, offset] = shortVec(bytes, offset)
  const accountKeys = Array.from({ length: count }, (_, i) =>
    base58.encode(take(offset + 32 * i, 32)),
  )
  offset += 32 * count + 32 // keys, recent blockhash
  ;[count, offset] = shortVec(bytes, offset)
  const instructions: ParsedInstruction[] = []
  for (let i = 0; i < count; i++) {
    const programIndex = take(offset, 1)[0] ?? 0
    let length: number
    ;[length, offset] = shortVec(bytes, offset + 1)
    const accounts = [...take(offset, length)].map((k) => accountKeys[k] ?? `lookup #${k}`)
    ;[length, offset] = shortVec(bytes, offset + length)
    const data = take(offset, length)
    offset += length
    instructions.push({
      programId: accountKeys[programIndex] ?? `lookup #${programIndex}`,
      accounts,
      data,
    })
  }
  if ((required ?? 0) !== signatures.length)
    throw invalidParams('Signature count does not match the message header')
  return {
    version,
    signatures,
    message: bytes.subarray(messageOffset),
    messageOffset,
    signers: accountKeys.slice(0, required),
    accountKeys,
    instructions,
  }
}

/**
 * The transaction with `key`'s signature in its slot; -32602 when the key is not a signer.
 *
 * @example
 * const signed = signTransaction(bytes, solanaKeyOf(seed))
 */
export function signTransaction(bytes: Uint8Array, key: DevSolanaKey): Uint8Array {
  const parsed = parseTransaction(bytes)
  const index = parsed.signers.indexOf(key.address)
  if (index < 0) throw invalidParams(`${key.address} is not a signer of this transaction`)
  const signed = bytes.slice()
  signed.set(
    ed25519.sign(parsed.message, key.seed),
    parsed.messageOffset - 64 * (parsed.signatures.length - index),
  )
  return signed
}

/**
 * What a transaction does, for the approval prompt: SOL transfers spelled out, other
 * instructions by program.
 *
 * @example
 * describeTransaction(parseTransaction(bytes)) // 'Send 0.01 SOL to 4MDq…'
 */
export function describeTransaction(parsed: ParsedTransaction): string {
  const lines = parsed.instructions.map(({ programId, accounts, data }) => {
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
    if (programId === SYSTEM_PROGRAM && data.length === 12 && view.getUint32(0, true) === 2) {
      const lamports = view.getBigUint64(4, true)
      return `Send ${formatSol(lamports)} SOL to ${accounts[1] ?? '?'}`
    }
    return `Call program ${programId} (${data.length} bytes of data)`
  })
  return [...lines, `Fee payer: ${parsed.signers[0] ?? '?'}`].join('\n')
}

/** Lamports as SOL, without trailing zeros. */
function formatSol(lamports: bigint): string {
  const whole = lamports / 1_000_000_000n
  const fraction = (lamports % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : `${whole}`
}

/** The message as the prompt shows it: its text when it is UTF-8, else hex. */
export function describeMessage(message: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(message)
  } catch {
    return `0x${hex.encode(message)}`
  }
}

/** A Wallet Standard account of this wallet. */
export type DevSolanaWalletAccount = DevWalletKit.Account

type Input = { account?: { address?: string }; chain?: string; options?: Record<string, unknown> }
type MessageInput = Input & { message: Uint8Array }
type TransactionInput = Input & { transaction: Uint8Array }

/** Options of {@link createSolanaDevWallet}. */
export type CreateSolanaDevWalletParameters = SolanaDevWalletConfig &
  DevWalletKit.HostParameters & {
    /** The JSON-RPC transport; default `fetch`. */
    fetch?: typeof fetch
  }

/**
 * The wallet (a Wallet Standard `Wallet`) and the controls tests and the demo steer it with.
 *
 * @example
 * const { wallet, controls } = createSolanaDevWallet({ mode: 'approve' })
 * const { accounts } = await wallet.features['standard:connect'].connect()
 * accounts[0].address // '61UAJ1bK…' (the local chain's test account 0)
 */
export function createSolanaDevWallet(parameters: CreateSolanaDevWalletParameters = {}) {
  const seeds =
    parameters.seeds ??
    (parameters.seed ? [parameters.seed] : SOLANA_TEST_ACCOUNTS.map((a) => a.seed))
  const keys = seeds.map(solanaKeyOf)
  const rpcUrls: Record<string, string> = {
    'solana:localnet': parameters.rpcUrl ?? DEFAULT_RPC,
    'solana:devnet': DEVNET_RPC,
  }
  const post = parameters.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))
  const keyAt = (index: number) => keys[index] ?? (keys[0] as DevSolanaKey)
  const kit = DevWalletKit.create({
    ...parameters,
    name: NAME,
    storageKey: STORE,
    addressOf: (index) => keyAt(index).address,
    accountsOf: (index) => [
      Object.freeze({
        address: keyAt(index).address,
        publicKey: keyAt(index).publicKey.slice(),
        chains: Object.freeze([...SOLANA_DEV_WALLET_CHAINS]),
        features: Object.freeze([...FEATURES]),
        label: `Test account ${index}`,
      }),
    ],
  })
  const key = () => keyAt(kit.accountIndex)
  const approve = kit.approve
  /** Our key, when the input's account is ours and granted. */
  const signer = (input: Input): DevSolanaKey => {
    kit.requirePermission()
    if (input.account?.address !== key().address)
      throw error(4100, `Unknown account: ${String(input.account?.address)}`)
    return key()
  }
  const chainOf = (input: Input) => {
    const chain = input.chain ?? SOLANA_DEV_WALLET_CHAINS[0]
    if (!rpcUrls[chain]) throw invalidParams(`Unsupported chain: ${chain}`)
    return chain
  }
  let rpcId = 1
  const rpc = async <T>(chain: string, method: string, params: unknown[]): Promise<T> => {
    const response = await post(rpcUrls[chain] as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: rpcId++, method, params }),
    })
    const body = (await response.json()) as {
      result?: T
      error?: { code: number; message: string }
    }
    if (body.error) throw error(body.error.code, body.error.message)
    return body.result as T
  }
  /** Waits until the cluster reports `signature` at `commitment` (30 s at most). */
  const confirmed = async (chain: string, signature: string, commitment: string) => {
    const levels = ['processed', 'confirmed', 'finalized']
    for (let tries = 0; tries < 60; tries++) {
      const { value } = await rpc<{
        value: ({ confirmationStatus?: string; err: unknown } | null)[]
      }>(chain, 'getSignatureStatuses', [[signature]])
      const status = value[0]
      if (status?.err) throw error(-32603, `Transaction failed: ${JSON.stringify(status.err)}`)
      if (levels.indexOf(status?.confirmationStatus ?? '') >= levels.indexOf(commitment)) return
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    throw error(-32603, `Not ${commitment} after 30 s: ${signature}`)
  }

  return kit.make({
    iconSvg: ICON_SVG,
    chains: SOLANA_DEV_WALLET_CHAINS,
    features: {
      'solana:signMessage': {
        version: '1.1.0' as const,
        async signMessage(...inputs: MessageInput[]) {
          const outputs = []
          for (const input of inputs) {
            const { seed } = signer(input)
            if (!(input.message instanceof Uint8Array)) throw invalidParams('message must be bytes')
            await approve(`Sign this message?\n\n${describeMessage(input.message)}`)
            outputs.push({
              signedMessage: input.message,
              signature: ed25519.sign(input.message, seed),
              signatureType: 'ed25519' as const,
            })
          }
          return outputs
        },
      },
      'solana:signTransaction': {
        version: '1.0.0' as const,
        supportedTransactionVersions: ['legacy', 0] as const,
        async signTransaction(...inputs: TransactionInput[]) {
          const plan = inputs.map((input) => {
            chainOf(input)
            return { key: signer(input), parsed: parseTransaction(input.transaction), input }
          })
          await approve(
            `Sign ${plan.length === 1 ? 'this transaction' : `${plan.length} transactions`}?\n\n${plan.map((p) => describeTransaction(p.parsed)).join('\n\n')}`,
          )
          return plan.map(({ key, input }) => ({
            signedTransaction: signTransaction(input.transaction, key),
          }))
        },
      },
      'solana:signAndSendTransaction': {
        version: '1.0.0' as const,
        supportedTransactionVersions: ['legacy', 0] as const,
        async signAndSendTransaction(...inputs: TransactionInput[]) {
          const outputs = []
          for (const input of inputs) {
            const chain = chainOf(input)
            const key = signer(input)
            const parsed = parseTransaction(input.transaction)
            await approve(`Send this transaction on ${chain}?\n\n${describeTransaction(parsed)}`)
            // `mode` (parallel / serial) is the wallet's own business; the rest is RPC config.
            const { commitment, mode: _mode, ...options } = input.options ?? {}
            const signature = await rpc<string>(chain, 'sendTransaction', [
              base64.encode(signTransaction(input.transaction, key)),
              { ...options, encoding: 'base64' },
            ])
            if (typeof commitment === 'string') await confirmed(chain, signature, commitment)
            outputs.push({ signature: base58.decode(signature) })
          }
          return outputs
        },
      },
    },
  })
}

/** The wallet object {@link createSolanaDevWallet} makes. */
export type SolanaDevWallet = ReturnType<typeof createSolanaDevWallet>['wallet']

// In a page: `window.portholeSolanaDevWallet`, and the wallet registered.
DevWalletKit.install<SolanaDevWalletConfig>({
  configKey: 'portholeSolanaDevWalletConfig',
  controlsKey: 'portholeSolanaDevWallet',
  storageKey: STORE,
  create: createSolanaDevWallet,
})
