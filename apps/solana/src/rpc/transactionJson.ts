/**
 * A landed transaction as `getTransaction` answers it, in `json`, `jsonParsed`, `base64` or
 * `base58`, with its status meta (fee, balances before and after, token balances, logs, inner
 * instructions, loaded addresses).
 */
import { base58, base64 } from '@scure/base'
import type { InnerInstructions, LandedTransaction, TokenBalance } from '../chain.js'
import { isStaticWritable } from '../internal/decodeTransaction.js'
import { uiTokenAmount } from '../internal/spl.js'
import { parsedInstruction } from './parsedInstruction.js'

/** A transaction encoding of `getTransaction`. */
export type TransactionEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58'

/**
 * The `getTransaction` result; `version` only when the caller named a
 * `maxSupportedTransactionVersion`, as a validator answers.
 *
 * @example
 * transactionJson(landed, 'json', true).meta.fee // 5000n
 */
export function transactionJson(
  landed: LandedTransaction,
  encoding: TransactionEncoding,
  withVersion: boolean,
): Record<string, unknown> {
  const { decoded } = landed
  const parsed = encoding === 'jsonParsed'
  const transaction =
    encoding === 'base64'
      ? [base64.encode(decoded.wire), 'base64']
      : encoding === 'base58'
        ? [base58.encode(decoded.wire), 'base58']
        : {
            message: parsed ? parsedMessage(landed) : jsonMessage(landed),
            signatures: decoded.signatures.map((signature) => base58.encode(signature)),
          }
  return {
    blockTime: landed.blockTime,
    meta: statusMeta(landed, parsed),
    slot: landed.slot,
    transaction,
    ...(withVersion ? { version: decoded.version } : {}),
  }
}

/**
 * A transaction error as a `status` (`{ Ok: null }` or `{ Err: … }`).
 *
 * @example
 * statusOf(null) // { Ok: null }
 */
export function statusOf(err: LandedTransaction['err']): Record<string, unknown> {
  return err === null ? { Ok: null } : { Err: err }
}

function jsonMessage({ decoded }: LandedTransaction): Record<string, unknown> {
  return {
    accountKeys: decoded.staticKeys,
    ...(decoded.version === 0 ? { addressTableLookups: decoded.lookups } : {}),
    header: decoded.header,
    instructions: decoded.instructions.map((ix) => ({
      accounts: ix.accounts,
      data: base58.encode(ix.data),
      programIdIndex: ix.programIdIndex,
      stackHeight: null,
    })),
    recentBlockhash: decoded.recentBlockhash,
  }
}

function parsedMessage(landed: LandedTransaction): Record<string, unknown> {
  const { decoded, accountKeys, loaded } = landed
  const staticCount = decoded.staticKeys.length
  return {
    accountKeys: accountKeys.map((pubkey, i) => ({
      pubkey,
      signer: i < decoded.header.numRequiredSignatures,
      source: i < staticCount ? 'transaction' : 'lookupTable',
      writable:
        i < staticCount ? isStaticWritable(decoded, i) : i < staticCount + loaded.writable.length,
    })),
    ...(decoded.version === 0 ? { addressTableLookups: decoded.lookups } : {}),
    instructions: decoded.instructions.map((ix) =>
      parsedInstruction(
        accountKeys[ix.programIdIndex]!,
        ix.accounts.map((index) => accountKeys[index]!),
        ix.data,
        null,
      ),
    ),
    recentBlockhash: decoded.recentBlockhash,
  }
}

function statusMeta(landed: LandedTransaction, parsed: boolean): Record<string, unknown> {
  const inner = (entry: InnerInstructions) => ({
    index: entry.index,
    instructions: entry.instructions.map((ix) =>
      parsed
        ? parsedInstruction(
            landed.accountKeys[ix.programIdIndex]!,
            ix.accounts.map((index) => landed.accountKeys[index]!),
            ix.data,
            ix.stackHeight,
          )
        : {
            accounts: ix.accounts,
            data: base58.encode(ix.data),
            programIdIndex: ix.programIdIndex,
            stackHeight: ix.stackHeight,
          },
    ),
  })
  return {
    computeUnitsConsumed: landed.unitsConsumed,
    err: landed.err,
    fee: landed.fee,
    innerInstructions: landed.innerInstructions.map(inner),
    ...(parsed ? {} : { loadedAddresses: landed.loaded }),
    logMessages: landed.logs,
    postBalances: landed.postBalances,
    postTokenBalances: landed.postTokenBalances.map(tokenBalanceJson),
    preBalances: landed.preBalances,
    preTokenBalances: landed.preTokenBalances.map(tokenBalanceJson),
    ...(landed.returnData
      ? {
          returnData: {
            data: [base64.encode(landed.returnData.data), 'base64'],
            programId: landed.returnData.programId,
          },
        }
      : {}),
    rewards: [],
    status: statusOf(landed.err),
  }
}

function tokenBalanceJson(balance: TokenBalance): Record<string, unknown> {
  return {
    accountIndex: balance.accountIndex,
    mint: balance.mint,
    owner: balance.owner,
    programId: balance.programId,
    uiTokenAmount: uiTokenAmount(balance.amount, balance.decimals),
  }
}
