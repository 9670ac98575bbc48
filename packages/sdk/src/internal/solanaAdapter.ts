/**
 * A Wallet Standard Solana wallet behind WalletConnect's Solana JSON-RPC methods: the shapes
 * the modal and `getProvider('solana')` speak, translated to `standard:connect`,
 * `solana:signMessage`, `solana:signTransaction` and `solana:signAndSendTransaction`.
 * Methods outside spec §6's Solana list are refused (4200), as `MODAL_METHODS` does for EVM.
 */
import {
  InternalRpcError,
  InvalidParamsError,
  UnauthorizedError,
  UnsupportedMethodError,
} from '@porthole/protocol/lite'
import { base58Decode, base58Encode, base64Decode, base64Encode } from './encoding.js'
import {
  accountsOn,
  type ConnectFeature,
  followAccounts,
  type StandardAccount,
  type StandardAdapter,
  type StandardWallet,
} from './standardTypes.js'

const SOLANA = 'solana:'

type SignMessageFeature = {
  signMessage(
    ...inputs: { account: StandardAccount; message: Uint8Array }[]
  ): Promise<{ signedMessage: Uint8Array; signature: Uint8Array }[]>
}
type TransactionInput = {
  account: StandardAccount
  transaction: Uint8Array
  chain?: string
  options?: object
}
type SignTransactionFeature = {
  signTransaction(...inputs: TransactionInput[]): Promise<{ signedTransaction: Uint8Array }[]>
}
type SignAndSendTransactionFeature = {
  signAndSendTransaction(...inputs: TransactionInput[]): Promise<{ signature: Uint8Array }[]>
}

/**
 * True for a Wallet Standard wallet the SDK bridges as Solana: a `solana:*` chain,
 * `standard:connect` and `solana:signMessage`.
 *
 * @example
 * if (isSolanaWallet(wallet)) adapters.set(uuid, createSolanaAdapter(wallet))
 */
export const isSolanaWallet = (wallet: StandardWallet): boolean =>
  wallet.chains.some((c) => c.startsWith(SOLANA)) &&
  !!wallet.features['standard:connect'] &&
  !!wallet.features['solana:signMessage']

/** A compact-u16 (Solana's short vector length) at `offset`: [value, bytes read]. */
function shortVec(bytes: Uint8Array, offset: number): [number, number] {
  let value = 0
  for (let size = 0; size < 3; size++) {
    const byte = bytes[offset + size] ?? 0
    value |= (byte & 0x7f) << (7 * size)
    if (!(byte & 0x80)) return [value, size + 1]
  }
  return [value, 3]
}

/**
 * The signature `publicKey` put on a serialized transaction (legacy or versioned): the one at
 * its index among the required signers; the fee payer's when it is not one.
 *
 * @example
 * base58Encode(signatureOf(signedTransaction, account.publicKey))
 */
export function signatureOf(transaction: Uint8Array, publicKey: Uint8Array): Uint8Array {
  const [count, countSize] = shortVec(transaction, 0)
  let offset = countSize + 64 * count
  if ((transaction[offset] ?? 0) & 0x80) offset++ // versioned message prefix
  const required = transaction[offset] ?? 0
  const [, keysSize] = shortVec(transaction, offset + 3)
  offset += 3 + keysSize
  let index = 0
  for (let i = 0; i < Math.min(required, count); i++) {
    const key = transaction.subarray(offset + 32 * i, offset + 32 * i + 32)
    if (key.length === 32 && key.every((byte, j) => byte === publicKey[j])) index = i
  }
  return transaction.slice(countSize + 64 * index, countSize + 64 * index + 64)
}

/**
 * The adapter of one Solana wallet. The signing account is `params.pubkey` when given, else
 * the wallet's first Solana account (connecting silently first after a reload); the chain is
 * `params.chain` (a Wallet Standard chain name) when given, else the wallet's first Solana
 * chain.
 *
 * @example
 * const { signature } = await createSolanaAdapter(wallet).request({
 *   method: 'solana_signMessage',
 *   params: { message: base58Message, pubkey },
 * })
 */
export function createSolanaAdapter(wallet: StandardWallet): StandardAdapter {
  const features = wallet.features
  const connect = features['standard:connect'] as ConnectFeature
  const feature = <T>(name: string): T => {
    if (!features[name]) throw new UnsupportedMethodError(`${wallet.name} does not support ${name}`)
    return features[name] as T
  }
  const pubkeys = (accounts: readonly StandardAccount[]) =>
    accountsOn(accounts, SOLANA).map((a) => ({ pubkey: a.address }))
  const account = async (pubkey: unknown) => {
    let accounts = accountsOn(wallet.accounts, SOLANA)
    if (!accounts.length)
      accounts = accountsOn((await connect.connect({ silent: true })).accounts, SOLANA)
    const found = pubkey === undefined ? accounts[0] : accounts.find((a) => a.address === pubkey)
    if (!found) throw new UnauthorizedError('The wallet has not granted this account')
    return found
  }

  return {
    async request({ method, params }) {
      const p = (params && typeof params === 'object' ? params : {}) as Record<string, unknown>
      const chain =
        typeof p.chain === 'string' ? p.chain : wallet.chains.find((c) => c.startsWith(SOLANA))
      const input = async (transaction: unknown): Promise<TransactionInput> => ({
        account: await account(p.pubkey),
        transaction: base64Decode(transaction),
        ...(chain ? { chain } : {}),
      })
      switch (method) {
        case 'solana_requestAccounts':
          return pubkeys((await connect.connect()).accounts)
        case 'solana_getAccounts':
          return wallet.accounts.length
            ? pubkeys(wallet.accounts)
            : pubkeys((await connect.connect({ silent: true })).accounts)
        case 'solana_signMessage': {
          const message = base58Decode(p.message)
          const signed = first(
            await feature<SignMessageFeature>('solana:signMessage').signMessage({
              account: await account(p.pubkey),
              message,
            }),
          )
          return { signature: base58Encode(signed.signature) }
        }
        case 'solana_signTransaction': {
          const request = await input(p.transaction)
          const signed = first(
            await feature<SignTransactionFeature>('solana:signTransaction').signTransaction(
              request,
            ),
          )
          return {
            signature: base58Encode(
              signatureOf(signed.signedTransaction, request.account.publicKey),
            ),
            transaction: base64Encode(signed.signedTransaction),
          }
        }
        case 'solana_signAllTransactions': {
          if (!Array.isArray(p.transactions))
            throw new InvalidParamsError('Expected { transactions: base64[] }')
          const inputs = await Promise.all(p.transactions.map(input))
          const signed = await feature<SignTransactionFeature>(
            'solana:signTransaction',
          ).signTransaction(...inputs)
          return { transactions: signed.map((s) => base64Encode(s.signedTransaction)) }
        }
        case 'solana_signAndSendTransaction': {
          const request = await input(p.transaction)
          if (p.sendOptions && typeof p.sendOptions === 'object') request.options = p.sendOptions
          const sent = first(
            await feature<SignAndSendTransactionFeature>(
              'solana:signAndSendTransaction',
            ).signAndSendTransaction(request),
          )
          return { signature: base58Encode(sent.signature) }
        }
        default:
          throw new UnsupportedMethodError()
      }
    },
    on: followAccounts(wallet, SOLANA),
  }
}

/** The one output of a one-input call (a wallet that answers nothing is an internal error). */
function first<T>(outputs: readonly T[]): T {
  if (outputs[0] === undefined) throw new InternalRpcError('The wallet returned no result')
  return outputs[0]
}
