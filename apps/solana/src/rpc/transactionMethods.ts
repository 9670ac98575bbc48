/**
 * Transaction methods: send (with preflight), simulate, statuses, full transactions, an
 * address's signatures, message fees and the faucet.
 */
import { base58, base64 } from '@scure/base'
import { VersionedMessage } from '@solana/web3.js'
import { type LandedTransaction, TransactionRejectedError } from '../chain.js'
import {
  type DecodedTransaction,
  decodeTransaction,
  InvalidTransactionError,
} from '../internal/decodeTransaction.js'
import { messageFee } from '../internal/fees.js'
import { accountEncoding, accountJson } from './accountJson.js'
import { type RpcMethod, withContext } from './context.js'
import {
  addressAt,
  type Config,
  checkMinContextSlot,
  configAt,
  invalidParams,
  isSignature,
  JsonRpcError,
} from './params.js'
import { parsedInstruction } from './parsedInstruction.js'
import { statusOf, type TransactionEncoding, transactionJson } from './transactionJson.js'

const MAX_SIGNATURE_STATUSES = 256
const MAX_SIGNATURES_FOR_ADDRESS = 1000
const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'

/**
 * The transaction methods by name.
 *
 * @example
 * transactionMethods.sendTransaction!([wireBase64, { encoding: 'base64' }], chain) // '5VERv8…'
 */
export const transactionMethods: Record<string, RpcMethod> = {
  sendTransaction(params, chain) {
    const config = configAt(params, 1)
    checkMinContextSlot(config, chain.slot())
    const decoded = wireTransaction(params, config)
    try {
      return chain.submit(decoded, { skipPreflight: config.skipPreflight === true })
    } catch (error) {
      if (error instanceof TransactionRejectedError)
        throw rejected(error, config.skipPreflight === true)
      throw error
    }
  },

  simulateTransaction(params, chain) {
    const config = configAt(params, 1)
    checkMinContextSlot(config, chain.slot())
    const decoded = wireTransaction(params, config)
    const sigVerify = config.sigVerify === true
    const replaceRecentBlockhash = config.replaceRecentBlockhash === true
    if (sigVerify && replaceRecentBlockhash)
      throw invalidParams('sigVerify may not be used with replaceRecentBlockhash')
    const result = chain.simulate(decoded, { sigVerify, replaceRecentBlockhash })
    if (sigVerify && result.err === 'SignatureFailure') throw signatureFailure()
    const wanted = config.accounts as { addresses?: unknown; encoding?: unknown } | undefined
    let accounts: unknown = null
    if (wanted) {
      const addresses = Array.isArray(wanted.addresses) ? wanted.addresses : []
      const encoding = accountEncoding({ encoding: wanted.encoding ?? 'base64' })
      accounts = addresses.map((_, i) => {
        const address = addressAt(addresses, i)
        const after = result.err === null ? result.accountsAfter.get(address) : undefined
        const account = after ?? chain.getAccount(address)
        return accountJson(chain, account?.lamports ? account : undefined, encoding, {})
      })
    }
    const keys = result.accountKeys
    return withContext(chain, {
      accounts,
      err: result.err,
      fee: result.err === null ? chain.fee(decoded) : null,
      innerInstructions:
        config.innerInstructions === true
          ? result.innerInstructions.map((entry) => ({
              index: entry.index,
              instructions: entry.instructions.map((ix) =>
                parsedInstruction(
                  keys[ix.programIdIndex]!,
                  ix.accounts.map((index) => keys[index]!),
                  ix.data,
                  ix.stackHeight,
                ),
              ),
            }))
          : null,
      logs: result.logs,
      replacementBlockhash: replaceRecentBlockhash ? chain.latestBlockhash() : null,
      returnData: result.returnData
        ? {
            data: [base64.encode(result.returnData.data), 'base64'],
            programId: result.returnData.programId,
          }
        : null,
      unitsConsumed: result.unitsConsumed,
    })
  },

  getSignatureStatuses(params, chain) {
    const signatures = params[0]
    if (!Array.isArray(signatures))
      throw invalidParams('Invalid params: invalid type: expected a sequence at position 0.')
    if (signatures.length > MAX_SIGNATURE_STATUSES)
      throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`)
    return withContext(
      chain,
      signatures.map((signature) => {
        if (!isSignature(signature)) throw invalidParams('Invalid param: Invalid')
        const landed = chain.transaction(signature)
        return landed
          ? {
              confirmationStatus: 'finalized',
              confirmations: null,
              err: landed.err,
              slot: landed.slot,
              status: statusOf(landed.err),
            }
          : null
      }),
    )
  },

  getTransaction(params, chain) {
    const signature = params[0]
    if (!isSignature(signature)) throw invalidParams('Invalid param: Invalid')
    const config: Config =
      typeof params[1] === 'string' ? { encoding: params[1] } : configAt(params, 1)
    const { encoding = 'json', maxSupportedTransactionVersion } = config
    if (
      encoding !== 'json' &&
      encoding !== 'jsonParsed' &&
      encoding !== 'base64' &&
      encoding !== 'base58'
    )
      throw invalidParams(`Invalid params: unknown variant \`${String(encoding)}\`.`)
    const landed = chain.transaction(signature)
    if (!landed) return null
    if (landed.decoded.version === 0 && typeof maxSupportedTransactionVersion !== 'number')
      throw new JsonRpcError(
        -32015,
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
      )
    return transactionJson(
      landed,
      encoding as TransactionEncoding,
      maxSupportedTransactionVersion !== undefined,
    )
  },

  getSignaturesForAddress(params, chain) {
    const address = addressAt(params, 0)
    const config = configAt(params, 1)
    checkMinContextSlot(config, chain.slot())
    const { limit = MAX_SIGNATURES_FOR_ADDRESS, before, until } = config
    if (
      typeof limit !== 'number' ||
      !Number.isInteger(limit) ||
      limit < 1 ||
      limit > MAX_SIGNATURES_FOR_ADDRESS
    )
      throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES_FOR_ADDRESS}`)
    for (const signature of [before, until])
      if (signature !== undefined && !isSignature(signature))
        throw invalidParams('Invalid param: Invalid')
    const newestFirst = [...chain.signaturesOf(address)].reverse()
    const start = before === undefined ? 0 : newestFirst.indexOf(before as string) + 1
    if (before !== undefined && start === 0) return []
    const end = until === undefined ? -1 : newestFirst.indexOf(until as string)
    return newestFirst
      .slice(start, end === -1 ? undefined : end)
      .slice(0, limit)
      .map((signature) => {
        const landed = chain.transaction(signature)!
        return {
          blockTime: landed.blockTime,
          confirmationStatus: 'finalized',
          err: landed.err,
          memo: memoOf(landed),
          signature,
          slot: landed.slot,
        }
      })
  },

  getFeeForMessage(params, chain) {
    if (typeof params[0] !== 'string')
      throw invalidParams('Invalid params: invalid type: expected a string at position 0.')
    checkMinContextSlot(configAt(params, 1), chain.slot())
    let message: VersionedMessage
    try {
      message = VersionedMessage.deserialize(base64.decode(params[0]))
    } catch (error) {
      throw invalidParams(`invalid message: ${error instanceof Error ? error.message : error}`)
    }
    if (!chain.isBlockhashValid(message.recentBlockhash)) return withContext(chain, null)
    const keys = message.staticAccountKeys.map((key) => key.toBase58())
    return withContext(
      chain,
      messageFee({
        numRequiredSignatures: message.header.numRequiredSignatures,
        instructions: message.compiledInstructions.map((ix) => ({
          programId: keys[ix.programIdIndex] ?? '',
          data: ix.data,
        })),
      }),
    )
  },

  requestAirdrop(params, chain) {
    const address = addressAt(params, 0)
    const lamports = params[1]
    if (typeof lamports !== 'number' || !Number.isSafeInteger(lamports) || lamports <= 0)
      throw invalidParams('Invalid params: invalid type: expected u64 at position 1.')
    try {
      return chain.airdrop(address, BigInt(lamports))
    } catch (error) {
      if (error instanceof TransactionRejectedError) throw rejected(error, false)
      throw error
    }
  },
}

/** The wire transaction of `params[0]` in `config.encoding` (base58 by default). */
function wireTransaction(params: readonly unknown[], config: Config): DecodedTransaction {
  const text = params[0]
  if (typeof text !== 'string')
    throw invalidParams('Invalid params: invalid type: expected a string at position 0.')
  const { encoding = 'base58' } = config
  if (encoding !== 'base58' && encoding !== 'base64')
    throw invalidParams(
      `Invalid params: unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64`,
    )
  let bytes: Uint8Array
  try {
    bytes = encoding === 'base64' ? base64.decode(text) : base58.decode(text)
  } catch {
    throw invalidParams(`invalid ${encoding} encoding: the transaction is not ${encoding}`)
  }
  try {
    return decodeTransaction(bytes)
  } catch (error) {
    if (error instanceof InvalidTransactionError)
      throw invalidParams(`invalid transaction: ${error.message}`)
    throw error
  }
}

function signatureFailure(): JsonRpcError {
  return new JsonRpcError(-32003, 'Transaction signature verification failure')
}

/** A refused transaction as the RPC error of a failed preflight (-32002), with its logs. */
function rejected(error: TransactionRejectedError, skippedPreflight: boolean): JsonRpcError {
  if (error.err === 'SignatureFailure') return signatureFailure()
  return new JsonRpcError(
    -32002,
    `${skippedPreflight ? 'Transaction failed' : 'Transaction simulation failed'}: ${error.message}`,
    {
      accounts: null,
      err: error.err,
      innerInstructions: null,
      logs: error.execution?.logs ?? [],
      replacementBlockhash: null,
      returnData: null,
      unitsConsumed: error.execution?.unitsConsumed ?? 0n,
    },
  )
}

/** The memos of a transaction as `getSignaturesForAddress` shows them (`[5] hello`), or null. */
function memoOf(landed: LandedTransaction): string | null {
  const memos = landed.decoded.instructions
    .filter((ix) => landed.accountKeys[ix.programIdIndex] === MEMO_PROGRAM)
    .map((ix) => `[${ix.data.length}] ${new TextDecoder().decode(ix.data)}`)
  return memos.length ? memos.join('; ') : null
}
