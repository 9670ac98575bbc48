/**
 * Solana balances for the blockchain data service: an account's SOL and SPL token balances, read
 * from the network's JSON-RPC in one batch (`getBalance`, and `getTokenAccountsByOwner` with
 * `jsonParsed` for the Token and Token-2022 programs), one RPC per `solana` network.
 */
import type { BalanceEntry } from '@porthole/shared'
import { z } from 'zod'
import { createTtlCache } from './balances.js'
import { ChainUnavailableError } from './ChainData.js'
import type { KnownToken } from './config.js'
import { formatQuantity } from './history.js'
import { createRpc, type Rpc, unwrap } from './rpc.js'

/** The SPL Token and Token-2022 programs, whose token accounts a balance lists. */
export const SOLANA_TOKEN_PROGRAMS = [
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
] as const

/**
 * SOL: the native currency of every Solana network.
 *
 * @example
 * SOLANA_NATIVE_CURRENCY.decimals // 9
 */
export const SOLANA_NATIVE_CURRENCY = { name: 'Solana', symbol: 'SOL', decimals: 9 } as const

/**
 * True for a Solana network's CAIP-2 id (`solana:…`).
 *
 * @example
 * isSolanaChain('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp') // true
 */
export function isSolanaChain(chainId: string): boolean {
  return chainId.startsWith('solana:')
}

/** Raw balances of one Solana account. */
export type SolanaBalances = {
  lamports: bigint
  /** Base units per mint (summed over the owner's token accounts), in the RPC's order. */
  tokens: { mint: string; amount: bigint; decimals: number }[]
}

const Balance = z.object({ value: z.number().int().min(0) })
const TokenAccounts = z.object({
  value: z.array(
    z.object({
      account: z.object({
        data: z.object({
          parsed: z.object({
            info: z.object({
              mint: z.string(),
              tokenAmount: z.object({
                amount: z.string().regex(/^\d+$/),
                decimals: z.number().int().min(0).max(255),
              }),
            }),
          }),
        }),
      }),
    }),
  ),
})

/**
 * Reads `owner`'s lamports and token balances in one JSON-RPC batch. Throws when the node cannot
 * answer the SOL balance; a token program it cannot answer for is left out.
 *
 * @example
 * const { lamports, tokens } = await readSolanaBalances(rpc, '61UAJ1bK…') // 100000000000n, [{ mint: 'D7H6…', amount: 1000000000n, decimals: 6 }]
 */
export async function readSolanaBalances(rpc: Rpc, owner: string): Promise<SolanaBalances> {
  const [balance, ...programs] = await rpc.batch([
    { method: 'getBalance', params: [owner, { commitment: 'confirmed' }] },
    ...SOLANA_TOKEN_PROGRAMS.map((programId) => ({
      method: 'getTokenAccountsByOwner',
      params: [owner, { programId }, { encoding: 'jsonParsed', commitment: 'confirmed' }],
    })),
  ])
  const lamports = BigInt(Balance.parse(unwrap(balance, 'getBalance')).value)
  const byMint = new Map<string, { mint: string; amount: bigint; decimals: number }>()
  for (const result of programs) {
    if (!result?.ok) continue
    const parsed = TokenAccounts.safeParse(result.result)
    if (!parsed.success) continue
    for (const { account } of parsed.data.value) {
      const { mint, tokenAmount } = account.data.parsed.info
      const entry = byMint.get(mint) ?? { mint, amount: 0n, decimals: tokenAmount.decimals }
      entry.amount += BigInt(tokenAmount.amount)
      byMint.set(mint, entry)
    }
  }
  return { lamports, tokens: [...byMint.values()] }
}

/** Balances of Solana networks, cached like the EVM ones. */
export type SolanaBalanceReader = {
  /**
   * The balances of `owner` on `chainId`; throws {@link ChainUnavailableError} when the network
   * has no RPC or it does not answer.
   *
   * @example
   * await solana.balances(SOLANA_LOCALNET_CAIP, '61UAJ1bK…', false)
   */
  balances(chainId: string, owner: string, forceUpdate: boolean): Promise<SolanaBalances>
}

/**
 * Reads balances through `solana` (CAIP-2 id → JSON-RPC URL), each answer reused for `cacheMs`
 * per (network, owner) unless forced.
 *
 * @example
 * const solana = createSolanaBalances({ solana: config.solana, cacheMs: 5000, timeoutMs: 10_000 })
 */
export function createSolanaBalances({
  solana,
  cacheMs,
  timeoutMs,
}: {
  solana: Readonly<Record<string, string>>
  cacheMs: number
  timeoutMs: number
}): SolanaBalanceReader {
  const rpcs = new Map(
    Object.entries(solana).map(([chainId, url]) => [chainId, createRpc({ url, timeoutMs })]),
  )
  const cache = createTtlCache<SolanaBalances>({ ttlMs: cacheMs })
  return {
    balances(chainId, owner, forceUpdate) {
      const rpc = rpcs.get(chainId)
      if (!rpc) return Promise.reject(new ChainUnavailableError(`${chainId} has no Solana RPC`))
      return cache.get(
        `${chainId}|${owner}`,
        async () => {
          try {
            return await readSolanaBalances(rpc, owner)
          } catch (error) {
            throw new ChainUnavailableError(`${chainId}: the chain's RPC did not answer`, {
              cause: error,
            })
          }
        },
        forceUpdate,
      )
    },
  }
}

/** What {@link solanaBalanceEntries} turns into balance lines. */
export type SolanaBalanceEntriesParameters = {
  chainId: string
  balances: SolanaBalances
  /** The native currency (SOL, 9 decimals). */
  native: { name: string; symbol: string; decimals: number }
  /** Tokens known by mint (name, symbol); others are named after their mint. */
  knownTokens: readonly KnownToken[]
  /** The price of SOL (`mint` undefined) or of a token (`undefined`: unknown). */
  price(mint: string | undefined): number | undefined
  iconUrl(symbol: string): string
}

/**
 * The balance lines of a Solana account, in the shapes of the EVM path: SOL first (no
 * `address`), then each token with a non-zero balance, `address` its CAIP-10 mint.
 *
 * @example
 * solanaBalanceEntries({ chainId, balances, native, knownTokens, price, iconUrl })
 * // [{ symbol: 'SOL', quantity: { decimals: '9', numeric: '100' }, … }, { symbol: 'pUSD', address: 'solana:…:D7H6…', … }]
 */
export function solanaBalanceEntries({
  chainId,
  balances,
  native,
  knownTokens,
  price,
  iconUrl,
}: SolanaBalanceEntriesParameters): BalanceEntry[] {
  const known = new Map(knownTokens.map((token) => [token.address, token]))
  const line = (
    info: { name: string; symbol: string; decimals: number },
    amount: bigint,
    mint?: string,
  ): BalanceEntry => {
    const numeric = formatQuantity(amount, info.decimals)
    const quote = price(mint)
    return {
      name: info.name,
      symbol: info.symbol,
      chainId,
      ...(mint ? { address: `${chainId}:${mint}` } : {}),
      ...(quote === undefined ? {} : { value: Number(numeric) * quote }),
      price: quote ?? 0,
      quantity: { decimals: String(info.decimals), numeric },
      iconUrl: iconUrl(info.symbol),
    }
  }
  return [
    line(native, balances.lamports),
    ...balances.tokens
      .filter((token) => token.amount > 0n)
      .map((token) => {
        const info = known.get(token.mint)
        // The chain's decimals are the truth; the known list only names the token.
        return line(
          {
            name: info?.name ?? 'Unknown Token',
            symbol: info?.symbol ?? token.mint.slice(0, 4),
            decimals: token.decimals,
          },
          token.amount,
          token.mint,
        )
      }),
  ]
}
