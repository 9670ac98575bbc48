/**
 * Instructions in `jsonParsed` form for the programs a wallet's history shows: System transfers
 * and account creation, SPL Token transfers and mints, Associated Token Account creation and
 * memos. Others stay partially decoded (`{ programId, accounts, data }`), as a validator leaves
 * programs it cannot parse.
 */
import { base58 } from '@scure/base'
import { SYSTEM_PROGRAM } from '../chain.js'
import {
  ASSOCIATED_TOKEN_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  uiTokenAmount,
} from '../internal/spl.js'

const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'

/**
 * One instruction in `jsonParsed` form.
 *
 * @example
 * parsedInstruction(SYSTEM, [from, to], data, null)
 * // { parsed: { type: 'transfer', info: { destination, lamports: 5000, source } }, program: 'system', programId: SYSTEM, stackHeight: null }
 */
export function parsedInstruction(
  programId: string,
  accounts: readonly string[],
  data: Uint8Array,
  stackHeight: number | null,
): Record<string, unknown> {
  const parsed = parse(programId, accounts, data)
  return parsed
    ? { parsed: parsed.parsed, program: parsed.program, programId, stackHeight }
    : { accounts, data: base58.encode(data), programId, stackHeight }
}

function parse(
  programId: string,
  a: readonly string[],
  data: Uint8Array,
): { program: string; parsed: unknown } | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const u64 = (offset: number) =>
    data.length >= offset + 8 ? view.getBigUint64(offset, true) : undefined
  if (programId === SYSTEM_PROGRAM && data.length >= 4) {
    const tag = view.getUint32(0, true)
    const lamports = u64(4)
    if (tag === 2 && lamports !== undefined)
      return {
        program: 'system',
        parsed: {
          type: 'transfer',
          info: { destination: a[1], lamports, source: a[0] },
        },
      }
    const space = u64(12)
    if (tag === 0 && lamports !== undefined && space !== undefined && data.length >= 52)
      return {
        program: 'system',
        parsed: {
          type: 'createAccount',
          info: {
            lamports,
            newAccount: a[1],
            owner: base58.encode(data.subarray(20, 52)),
            source: a[0],
            space,
          },
        },
      }
    return undefined
  }
  if (programId === TOKEN_PROGRAM || programId === TOKEN_2022_PROGRAM) {
    const amount = u64(1)
    if (amount === undefined) return undefined
    if (data[0] === 3)
      return {
        program: 'spl-token',
        parsed: {
          type: 'transfer',
          info: { amount: amount.toString(), authority: a[2], destination: a[1], source: a[0] },
        },
      }
    if (data[0] === 12 && data.length >= 10)
      return {
        program: 'spl-token',
        parsed: {
          type: 'transferChecked',
          info: {
            authority: a[3],
            destination: a[2],
            mint: a[1],
            source: a[0],
            tokenAmount: uiTokenAmount(amount, data[9]!),
          },
        },
      }
    if (data[0] === 7)
      return {
        program: 'spl-token',
        parsed: {
          type: 'mintTo',
          info: { account: a[1], amount: amount.toString(), mint: a[0], mintAuthority: a[2] },
        },
      }
    return undefined
  }
  if (programId === ASSOCIATED_TOKEN_PROGRAM && (data.length === 0 || data[0]! <= 1))
    return {
      program: 'spl-associated-token-account',
      parsed: {
        type: data[0] === 1 ? 'createIdempotent' : 'create',
        info: {
          account: a[1],
          mint: a[3],
          source: a[0],
          systemProgram: a[4],
          tokenProgram: a[5],
          wallet: a[2],
        },
      },
    }
  if (programId === MEMO_PROGRAM)
    return { program: 'spl-memo', parsed: new TextDecoder().decode(data) }
  return undefined
}
