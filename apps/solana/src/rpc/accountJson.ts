/**
 * Accounts as the RPC writes them (`UiAccount`): data in base58, base64, or `jsonParsed` for
 * SPL token accounts and mints (other accounts fall back to base64, as a validator does).
 */
import { base58, base64 } from '@scure/base'
import type { AccountState, Chain } from '../chain.js'
import {
  decodeMint,
  decodeTokenAccount,
  NATIVE_MINT,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  uiTokenAmount,
} from '../internal/spl.js'
import { type Config, invalidParams } from './params.js'

/** An account data encoding; `binary` is the legacy plain base58 string. */
export type AccountEncoding = 'binary' | 'base58' | 'base64' | 'jsonParsed'

/** The `rentEpoch` of rent-exempt accounts (all of them now): u64::MAX. */
export const RENT_EXEMPT_EPOCH = 18446744073709551615n

/**
 * The encoding a config asks for (default `binary`).
 *
 * @example
 * accountEncoding({ encoding: 'jsonParsed' }) // 'jsonParsed'
 */
export function accountEncoding(config: Config): AccountEncoding {
  const { encoding = 'binary' } = config
  if (
    encoding === 'binary' ||
    encoding === 'base58' ||
    encoding === 'base64' ||
    encoding === 'jsonParsed'
  )
    return encoding
  throw invalidParams(`Invalid params: unsupported encoding: ${String(encoding)}.`)
}

/**
 * One account in the RPC's JSON (`null` when it does not exist).
 *
 * @example
 * accountJson(chain, chain.getAccount(address), 'base64', {})
 * // { data: ['', 'base64'], executable: false, lamports: 100000000000n, owner: '1111…', rentEpoch: …, space: 0 }
 */
export function accountJson(
  chain: Chain,
  account: AccountState | undefined,
  encoding: AccountEncoding,
  config: Config,
): Record<string, unknown> | null {
  if (!account) return null
  return {
    data: accountData(chain, account, encoding, config),
    executable: account.executable,
    lamports: account.lamports,
    owner: account.owner,
    rentEpoch: RENT_EXEMPT_EPOCH,
    space: account.data.length,
  }
}

/**
 * The `parsed` object of a token account or mint (`{ type, info }`), or `undefined`.
 *
 * @example
 * parsedToken(chain, account)?.info.tokenAmount.uiAmountString // '1000'
 */
export function parsedToken(
  chain: Chain,
  account: AccountState,
): { type: 'account' | 'mint'; info: Record<string, unknown> } | undefined {
  if (account.owner !== TOKEN_PROGRAM && account.owner !== TOKEN_2022_PROGRAM) return undefined
  const token = decodeTokenAccount(account.data)
  if (token) {
    const decimals = decimalsOf(chain, token.mint)
    if (decimals === undefined) return undefined
    const info: Record<string, unknown> = {
      isNative: token.isNative !== null,
      mint: token.mint,
      owner: token.owner,
      state: token.state === 2 ? 'frozen' : 'initialized',
      tokenAmount: uiTokenAmount(token.amount, decimals),
    }
    if (token.delegate !== null) {
      info.delegate = token.delegate
      info.delegatedAmount = uiTokenAmount(token.delegatedAmount, decimals)
    }
    if (token.isNative !== null) info.rentExemptReserve = uiTokenAmount(token.isNative, decimals)
    if (token.closeAuthority !== null) info.closeAuthority = token.closeAuthority
    return { type: 'account', info }
  }
  const mint = decodeMint(account.data)
  if (!mint?.isInitialized) return undefined
  return {
    type: 'mint',
    info: {
      decimals: mint.decimals,
      freezeAuthority: mint.freezeAuthority,
      isInitialized: true,
      mintAuthority: mint.mintAuthority,
      supply: mint.supply.toString(),
    },
  }
}

/**
 * The decimals of `mint`, or `undefined` when it is not a mint.
 *
 * @example
 * decimalsOf(chain, SOLANA_LOCAL_TOKEN.mint) // 6
 */
export function decimalsOf(chain: Chain, mint: string): number | undefined {
  if (mint === NATIVE_MINT) return 9
  const account = chain.getAccount(mint)
  return account ? decodeMint(account.data)?.decimals : undefined
}

function accountData(
  chain: Chain,
  account: AccountState,
  encoding: AccountEncoding,
  config: Config,
): unknown {
  const slice = config.dataSlice as { offset?: unknown; length?: unknown } | undefined
  if (encoding === 'jsonParsed' && !slice) {
    const parsed = parsedToken(chain, account)
    if (parsed)
      return {
        program: account.owner === TOKEN_PROGRAM ? 'spl-token' : 'spl-token-2022',
        parsed,
        space: account.data.length,
      }
  }
  let data = account.data
  if (slice) {
    const offset = Number(slice.offset ?? 0)
    data = data.subarray(offset, offset + Number(slice.length ?? 0))
  }
  if (encoding === 'binary') return base58.encode(data)
  if (encoding === 'base58') return [base58.encode(data), 'base58']
  return [base64.encode(data), 'base64']
}
