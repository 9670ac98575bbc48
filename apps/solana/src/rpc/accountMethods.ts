/**
 * Account reads: lamports, account data, SPL token accounts of an owner, token balances and
 * supply, the rent-exempt minimum.
 */
import type { Chain } from '../chain.js'
import { decodeMint, decodeTokenAccount, isTokenProgram, uiTokenAmount } from '../internal/spl.js'
import { accountEncoding, accountJson, decimalsOf } from './accountJson.js'
import { type RpcMethod, withContext } from './context.js'
import {
  addressAt,
  type Config,
  checkMinContextSlot,
  configAt,
  invalidParams,
  isAddress,
} from './params.js'

const MAX_MULTIPLE_ACCOUNTS = 100

/**
 * The account methods by name.
 *
 * @example
 * accountMethods.getBalance!([address], chain) // { context: { slot }, value: 100000000000n }
 */
export const accountMethods: Record<string, RpcMethod> = {
  getBalance(params, chain) {
    const address = addressAt(params, 0)
    checkMinContextSlot(configAt(params, 1), chain.slot())
    return withContext(chain, chain.getAccount(address)?.lamports ?? 0n)
  },

  getAccountInfo(params, chain) {
    const address = addressAt(params, 0)
    const config = configAt(params, 1)
    checkMinContextSlot(config, chain.slot())
    const encoding = accountEncoding(config)
    return withContext(chain, accountJson(chain, chain.getAccount(address), encoding, config))
  },

  getMultipleAccounts(params, chain) {
    const addresses = params[0]
    if (!Array.isArray(addresses))
      throw invalidParams('Invalid params: invalid type: expected a sequence at position 0.')
    if (addresses.length > MAX_MULTIPLE_ACCOUNTS)
      throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`)
    const keys = addresses.map((_, i) => addressAt(addresses, i))
    const config = configAt(params, 1)
    checkMinContextSlot(config, chain.slot())
    const encoding = accountEncoding(config)
    return withContext(
      chain,
      keys.map((key) => accountJson(chain, chain.getAccount(key), encoding, config)),
    )
  },

  getMinimumBalanceForRentExemption(params, chain) {
    const size = params[0]
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0)
      throw invalidParams('Invalid params: invalid type: expected usize at position 0.')
    return chain.minimumBalance(size)
  },

  getTokenAccountsByOwner(params, chain) {
    const owner = addressAt(params, 0)
    const { program, mint } = tokenFilter(chain, configAt(params, 1))
    const config = configAt(params, 2)
    checkMinContextSlot(config, chain.slot())
    const encoding = accountEncoding(config)
    const accounts = chain.programAccounts(program).filter(({ account }) => {
      const token = decodeTokenAccount(account.data)
      return token?.owner === owner && (mint === undefined || token.mint === mint)
    })
    return withContext(
      chain,
      accounts.map(({ address, account }) => ({
        pubkey: address,
        account: accountJson(chain, account, encoding, config),
      })),
    )
  },

  getTokenAccountBalance(params, chain) {
    const address = addressAt(params, 0)
    const account = chain.getAccount(address)
    const token =
      account && isTokenProgram(account.owner) ? decodeTokenAccount(account.data) : undefined
    if (!token) throw invalidParams('Invalid param: not a Token account')
    const decimals = decimalsOf(chain, token.mint)
    if (decimals === undefined) throw invalidParams('Invalid param: could not find mint')
    return withContext(chain, uiTokenAmount(token.amount, decimals))
  },

  getTokenSupply(params, chain) {
    const address = addressAt(params, 0)
    const account = chain.getAccount(address)
    const mint = account && isTokenProgram(account.owner) ? decodeMint(account.data) : undefined
    if (!mint) throw invalidParams('Invalid param: not a Token mint')
    return withContext(chain, uiTokenAmount(mint.supply, mint.decimals))
  },
}

/** `{ mint }` (its token program) or `{ programId }` (a token program). */
function tokenFilter(chain: Chain, filter: Config): { program: string; mint: string | undefined } {
  if (typeof filter.mint === 'string') {
    const account = isAddress(filter.mint) ? chain.getAccount(filter.mint) : undefined
    if (!account || !isTokenProgram(account.owner) || !decodeMint(account.data))
      throw invalidParams('Invalid param: could not find mint')
    return { program: account.owner, mint: filter.mint }
  }
  if (typeof filter.programId === 'string') {
    if (!isTokenProgram(filter.programId))
      throw invalidParams('Invalid param: unrecognized Token program id')
    return { program: filter.programId, mint: undefined }
  }
  throw invalidParams('Invalid params: expected a map with a mint or a programId at position 1.')
}
