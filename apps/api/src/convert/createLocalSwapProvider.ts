/**
 * A {@link SwapProvider} of our own over each chain's Uniswap V2 router, read through the API's
 * RPC upstreams: quotes with `getAmountsOut` (directly, or through the wrapped native token when
 * that pays more), price impact from the pools' reserves, calldata for the router's exact-input
 * swaps and for approvals. Each answer takes one JSON-RPC batch (plus one, once per pool, to
 * find the pools).
 */
import { getKnownNetwork } from '@porthole/shared'
import { uniswapV2FactoryAbi, uniswapV2PairAbi, uniswapV2RouterAbi } from '@porthole/shared/devnet'
import {
  type Abi,
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  hexToBigInt,
  maxUint256,
  toHex,
  zeroAddress,
} from 'viem'
import type { PriceSource } from '../chaindata/prices.js'
import { createRpc, type Rpc, type RpcCall, RpcError, type RpcResult } from '../chaindata/rpc.js'
import type { SwapChainConfig, SwapTokenConfig } from './config.js'
import {
  type ConvertQuote,
  isNativeToken,
  NATIVE_TOKEN_ADDRESS,
  type SwapAccount,
  SwapError,
  type SwapProvider,
} from './SwapProvider.js'

/** Options of {@link createLocalSwapProvider}. */
export type CreateLocalSwapProviderParameters = {
  /** Router, WETH and tokens per CAIP-2 id. */
  chains: Readonly<Record<string, SwapChainConfig>>
  /** JSON-RPC URL per CAIP-2 id (the API's `upstreams`). */
  upstreams: Readonly<Record<string, string>>
  /** Prices the network fee in USD. */
  prices: PriceSource
  /** This API's public URL: the default token logos are its token images. */
  publicUrl: string
  /** Whether the API has a token image of this id (lower-case symbol); default: none. */
  hasIcon?: (id: string) => boolean
  /** Per RPC call; default 10 000 ms. */
  timeoutMs?: number
  /** The clock in ms (swap deadlines); default `Date.now`. */
  now?: () => number
}

/** Fee of a Uniswap V2 pool: 0.3 % of the input (997/1000 stays). */
const FEE_KEEP = 997n
const FEE_BASE = 1000n
/**
 * Gas of a swap when it is not (or cannot be) estimated: measured on the devnets (90–130 k),
 * with room to spare.
 */
const SWAP_GAS_BASE = 70_000n
const SWAP_GAS_PER_HOP = 60_000n
const SWAP_GAS_TO_NATIVE = 20_000n
/**
 * Gas a built swap carries per pool on top of its estimate (× 1.2) or the figure above. A
 * Uniswap V2 pair writes its two price accumulators only in a block whose second differs from
 * its last update: an estimate run in the same second as that update (anvil mines many blocks
 * a second, as do rollups) leaves out two writes the swap then makes, and on a pool whose
 * accumulators are still zero each costs 22,100 gas. Measured on the devnet: 132,772 estimated,
 * 178,097 needed. The unused limit is not charged.
 */
const SWAP_GAS_ORACLE_PER_HOP = 50_000n
/** Gas of an ERC-20 `approve` when it cannot be estimated (46 k measured). */
const APPROVE_GAS = 60_000n
/** A swap's validity. */
const DEADLINE_SECONDS = 20 * 60

/** A token as the quoter trades it. */
type Token = {
  /** The router's view: WETH for the native token. */
  address: Address
  native: boolean
  /** The CAIP-10 id answered (native: `…:0xeeee…eeee`). */
  caip: string
  symbol: string
}

/** A path the router can trade, with its amounts and each hop's reserves (in, out). */
type Route = { path: Address[]; amounts: bigint[]; reserves: [bigint, bigint][] }

type ChainState = {
  chainId: string
  config: SwapChainConfig
  router: Address
  weth: Address
  tokens: Map<string, SwapTokenConfig>
  native: { name: string; symbol: string; decimals: number }
  factory: Promise<Address> | undefined
  /** Pools found, by sorted lower-case token pair (only existing pools are kept). */
  pairs: Map<string, Address>
}

/**
 * A swap provider over Uniswap V2 routers.
 *
 * @example
 * const swap = createLocalSwapProvider({ chains: DEVNET_SWAP_CHAINS, upstreams, prices, publicUrl })
 * await swap.quotes({ chainId: 'eip155:31337', from, to, user, amount: 10n ** 18n, gasPrice: undefined })
 */
export function createLocalSwapProvider({
  chains,
  upstreams,
  prices,
  publicUrl,
  hasIcon = () => false,
  timeoutMs = 10_000,
  now = Date.now,
}: CreateLocalSwapProviderParameters): SwapProvider {
  const states = new Map<string, ChainState>()

  const stateOf = (chainId: string): ChainState => {
    const existing = states.get(chainId)
    if (existing) return existing
    const config = chains[chainId]
    if (!config)
      throw new SwapError(
        'SWAP_NOT_CONFIGURED',
        `No swap router is configured for ${chainId} (PORTHOLE_SWAP_ROUTERS or PORTHOLE_SWAP_PROVIDER_URL)`,
      )
    const state: ChainState = {
      chainId,
      config,
      router: getAddress(config.router),
      weth: getAddress(config.weth),
      tokens: new Map(config.tokens.map((token) => [token.address.toLowerCase(), token])),
      native: config.native ??
        getKnownNetwork(chainId)?.nativeCurrency ?? { name: 'Ether', symbol: 'ETH', decimals: 18 },
      factory: config.factory ? Promise.resolve(getAddress(config.factory)) : undefined,
      pairs: new Map(),
    }
    states.set(chainId, state)
    return state
  }

  const rpcs = new Map<string, Rpc>()
  const rpcOf = (chainId: string): Rpc => {
    const existing = rpcs.get(chainId)
    if (existing) return existing
    const url = upstreams[chainId]
    if (!url)
      throw new SwapError(
        'SWAP_NOT_CONFIGURED',
        `No RPC upstream for ${chainId} (PORTHOLE_RPC_UPSTREAMS)`,
      )
    const rpc = createRpc({ url, timeoutMs })
    rpcs.set(chainId, rpc)
    return rpc
  }

  /** One JSON-RPC batch; a chain that cannot answer is 503 SWAP_UNAVAILABLE. */
  const batch = async (
    { chainId }: { chainId: string },
    calls: RpcCall[],
  ): Promise<RpcResult[]> => {
    try {
      return await rpcOf(chainId).batch(calls)
    } catch (error) {
      if (error instanceof RpcError)
        throw new SwapError('SWAP_UNAVAILABLE', `${chainId}: ${error.message}`, { cause: error })
      throw error
    }
  }

  const ok = (result: RpcResult | undefined, { chainId }: { chainId: string }, what: string) => {
    if (result?.ok) return result.result
    throw new SwapError(
      'SWAP_UNAVAILABLE',
      `${chainId}: ${what} failed: ${result?.error.message ?? 'no answer'}`,
    )
  }

  const ethCall = (to: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) => ({
    method: 'eth_call',
    params: [{ to, data: encodeFunctionData({ abi, functionName, args } as never) }, 'latest'],
  })

  /** A call's result; an answer that does not decode (no contract there?) is 503. */
  const decode = <T>(abi: Abi, functionName: string, data: unknown): T => {
    try {
      return decodeFunctionResult({ abi, functionName, data: data as Hex } as never) as T
    } catch (error) {
      throw new SwapError(
        'SWAP_UNAVAILABLE',
        `${functionName}() answered ${String(data).slice(0, 20)}: is the configured router a Uniswap V2 router?`,
        { cause: error },
      )
    }
  }

  const symbolOf = (state: ChainState, address: Address): string =>
    address === state.weth
      ? `W${state.native.symbol}`
      : (state.tokens.get(address.toLowerCase())?.symbol ?? address)

  const tokenOf = (state: ChainState, account: SwapAccount): Token => {
    if (isNativeToken(account.address))
      return {
        address: state.weth,
        native: true,
        caip: `${state.chainId}:${NATIVE_TOKEN_ADDRESS}`,
        symbol: state.native.symbol,
      }
    const address = getAddress(account.address.toLowerCase())
    const listed = state.tokens.get(address.toLowerCase())
    if (state.tokens.size > 0 && !listed)
      throw new SwapError(
        'UNKNOWN_TOKEN',
        `${state.chainId}:${account.address} is not on the swap list of ${state.chainId}`,
      )
    return {
      address,
      native: false,
      caip: `${state.chainId}:${address}`,
      symbol: listed?.symbol ?? symbolOf(state, address),
    }
  }

  const userOf = (account: SwapAccount) => getAddress(account.address.toLowerCase())

  const pairKey = (a: Address, b: Address) => [a.toLowerCase(), b.toLowerCase()].sort().join('/')

  /** The pools of `hops` (zero address: none), asking the factory for those not known yet. */
  const findPairs = async (state: ChainState, hops: [Address, Address][]) => {
    const unknown = [
      ...new Map(
        hops
          .filter(([a, b]) => !state.pairs.has(pairKey(a, b)))
          .map((hop) => [pairKey(...hop), hop]),
      ).values(),
    ]
    if (unknown.length) {
      state.factory ??= batch(state, [ethCall(state.router, uniswapV2RouterAbi, 'factory')]).then(
        ([result]) =>
          getAddress(
            decode<Address>(uniswapV2RouterAbi, 'factory', ok(result, state, 'factory()')),
          ),
      )
      state.factory.catch(() => {
        state.factory = undefined
      })
      const factory = await state.factory
      const results = await batch(
        state,
        unknown.map(([a, b]) => ethCall(factory, uniswapV2FactoryAbi, 'getPair', [a, b])),
      )
      unknown.forEach(([a, b], i) => {
        const pair = decode<Address>(
          uniswapV2FactoryAbi,
          'getPair',
          ok(results[i], state, 'getPair'),
        )
        if (pair !== zeroAddress) state.pairs.set(pairKey(a, b), getAddress(pair))
      })
    }
    return hops.map(([a, b]) => state.pairs.get(pairKey(a, b)))
  }

  /**
   * The best route for `amount` of `from` into `to`, checked against the pools' reserves, and
   * the answers to `extra` calls sent in the same batch.
   */
  const route = async (
    state: ChainState,
    from: Token,
    to: Token,
    amount: bigint,
    extra: RpcCall[],
  ): Promise<{ best: Route; extra: RpcResult[] }> => {
    if (from.address === to.address)
      throw new SwapError(
        'INVALID_REQUEST',
        `${from.symbol} and ${to.symbol} are the same token to the router (wrapping is not a swap)`,
      )
    const candidates: Address[][] = [[from.address, to.address]]
    if (from.address !== state.weth && to.address !== state.weth)
      candidates.push([from.address, state.weth, to.address])
    const hopsOf = (path: Address[]) =>
      path.slice(1).map((next, i) => [path[i]!, next] as [Address, Address])
    const allHops = candidates.flatMap(hopsOf)
    const pairs = await findPairs(state, allHops)
    const pairOf = new Map(allHops.map((hop, i) => [pairKey(...hop), pairs[i]]))
    const viable = candidates.filter((path) =>
      hopsOf(path).every((hop) => pairOf.get(pairKey(...hop))),
    )
    if (!viable.length)
      throw new SwapError(
        'INSUFFICIENT_LIQUIDITY',
        `No pool trades ${from.symbol} for ${to.symbol} on ${state.chainId}`,
      )
    const pools = [...new Set(viable.flatMap(hopsOf).map((hop) => pairOf.get(pairKey(...hop))!))]
    const results = await batch(state, [
      ...viable.map((path) =>
        ethCall(state.router, uniswapV2RouterAbi, 'getAmountsOut', [amount, path]),
      ),
      ...pools.map((pool) => ethCall(pool, uniswapV2PairAbi, 'getReserves')),
      ...extra,
    ])
    const reservesOf = new Map(
      pools.map((pool, i) => {
        const [r0, r1] = decode<[bigint, bigint, number]>(
          uniswapV2PairAbi,
          'getReserves',
          ok(results[viable.length + i], state, 'getReserves'),
        )
        return [pool, [r0, r1] as const]
      }),
    )
    let best: Route | undefined
    for (const [i, path] of viable.entries()) {
      const result = results[i]
      // A pool without reserves reverts (UniswapV2Library: INSUFFICIENT_LIQUIDITY).
      if (!result?.ok) continue
      const amounts = decode<readonly bigint[]>(uniswapV2RouterAbi, 'getAmountsOut', result.result)
      if (best && amounts[amounts.length - 1]! <= best.amounts[best.amounts.length - 1]!) continue
      const reserves = hopsOf(path).map(([a, b]) => {
        const [r0, r1] = reservesOf.get(pairOf.get(pairKey(a, b))!)!
        return (a.toLowerCase() < b.toLowerCase() ? [r0, r1] : [r1, r0]) as [bigint, bigint]
      })
      best = { path, amounts: [...amounts], reserves }
    }
    if (!best)
      throw new SwapError(
        'INSUFFICIENT_LIQUIDITY',
        `The pools trading ${from.symbol} for ${to.symbol} on ${state.chainId} are empty`,
      )
    for (const [i, [reserveIn]] of best.reserves.entries())
      if (best.amounts[i]! > reserveIn)
        throw new SwapError(
          'INSUFFICIENT_LIQUIDITY',
          `${best.amounts[i]} base units of ${symbolOf(state, best.path[i]!)} is more than the ${symbolOf(state, best.path[i]!)}/${symbolOf(state, best.path[i + 1]!)} pool holds (${reserveIn})`,
        )
    if (best.amounts[best.amounts.length - 1] === 0n)
      throw new SwapError(
        'INVALID_AMOUNT',
        `${amount} base units of ${from.symbol} buy no ${to.symbol}`,
      )
    return { best, extra: results.slice(viable.length + pools.length) }
  }

  const swapGas = (best: Route, to: Token) =>
    SWAP_GAS_BASE +
    SWAP_GAS_PER_HOP * BigInt(best.path.length - 1) +
    (to.native ? SWAP_GAS_TO_NATIVE : 0n)

  const iconUrl = (symbol: string, imageQuery: string) => {
    const id = symbol.toLowerCase()
    return `${publicUrl}/public/getTokenImage/${encodeURIComponent(hasIcon(id) ? id : 'token')}${imageQuery}`
  }

  const gasPriceCall: RpcCall = { method: 'eth_gasPrice', params: [] }
  const hexResult = (result: RpcResult | undefined, chain: { chainId: string }, what: string) =>
    hexToBigInt(ok(result, chain, what) as Hex)

  return {
    async tokens({ chainId, imageQuery }) {
      const state = stateOf(chainId)
      return {
        tokens: [
          {
            name: state.native.name,
            symbol: state.native.symbol,
            address: `${chainId}:${NATIVE_TOKEN_ADDRESS}`,
            decimals: state.native.decimals,
            logoUri: iconUrl(state.native.symbol, imageQuery),
          },
          ...state.config.tokens.map((token) => ({
            name: token.name,
            symbol: token.symbol,
            address: `${chainId}:${getAddress(token.address)}`,
            decimals: token.decimals,
            logoUri: token.logoUri ?? iconUrl(token.symbol, imageQuery),
          })),
        ],
      }
    },

    async quotes({ chainId, from: fromAccount, to: toAccount, amount, gasPrice }) {
      const state = stateOf(chainId)
      const from = tokenOf(state, fromAccount)
      const to = tokenOf(state, toAccount)
      const [{ best, extra }, [nativePrice]] = await Promise.all([
        route(state, from, to, amount, gasPrice === undefined ? [gasPriceCall] : []),
        prices.prices([{ chainId }], 'usd'),
      ])
      const price = gasPrice ?? hexResult(extra[0], state, 'eth_gasPrice')
      const toAmount = best.amounts[best.amounts.length - 1]!
      // What the amount would buy at the pools' spot prices, fee paid: the trade's own price
      // movement is the difference.
      let ideal = amount
      for (const [reserveIn, reserveOut] of best.reserves)
        ideal = (ideal * FEE_KEEP * reserveOut) / (FEE_BASE * reserveIn)
      const impactPpm = ideal > toAmount ? ((ideal - toAmount) * 1_000_000n) / ideal : 0n
      const hops = BigInt(best.path.length - 1)
      const fee = amount - (amount * FEE_KEEP ** hops) / FEE_BASE ** hops
      const gas = swapGas(best, to)
      const quote: ConvertQuote = {
        fromAmount: amount.toString(),
        fromAccount: from.caip,
        toAmount: toAmount.toString(),
        toAccount: to.caip,
        priceImpact: Number(impactPpm) / 10_000,
        fee: { amount: fee.toString(), token: from.caip },
        gas: gas.toString(),
        gasPrice: price.toString(),
        networkFeeUsd:
          nativePrice === undefined
            ? null
            : Math.round((Number(gas * price) / 10 ** state.native.decimals) * nativePrice * 1e6) /
              1e6,
        route: best.path.map((address, i) =>
          i === 0 ? from.caip : i === best.path.length - 1 ? to.caip : `${chainId}:${address}`,
        ),
      }
      return { quotes: [quote] }
    },

    async buildTransaction({
      chainId,
      from: fromAccount,
      to: toAccount,
      user: userAccount,
      amount,
      slippage,
      disableEstimate,
    }) {
      const state = stateOf(chainId)
      const from = tokenOf(state, fromAccount)
      const to = tokenOf(state, toAccount)
      const user = userOf(userAccount)
      const { best, extra } = await route(state, from, to, amount, [
        gasPriceCall,
        { method: 'eth_getBlockByNumber', params: ['latest', false] },
      ])
      const gasPrice = hexResult(extra[0], state, 'eth_gasPrice')
      const block = ok(extra[1], state, 'eth_getBlockByNumber') as { timestamp: Hex }
      const deadline =
        BigInt(Math.max(Math.floor(now() / 1000), Number(hexToBigInt(block.timestamp)))) +
        BigInt(DEADLINE_SECONDS)
      const bps = BigInt(Math.round(slippage * 100))
      const amountOutMin = (best.amounts[best.amounts.length - 1]! * (10_000n - bps)) / 10_000n
      const data = from.native
        ? encodeFunctionData({
            abi: uniswapV2RouterAbi,
            functionName: 'swapExactETHForTokens',
            args: [amountOutMin, best.path, user, deadline],
          })
        : encodeFunctionData({
            abi: uniswapV2RouterAbi,
            functionName: to.native ? 'swapExactTokensForETH' : 'swapExactTokensForTokens',
            args: [amount, amountOutMin, best.path, user, deadline],
          })
      const value = from.native ? amount : 0n
      let gas = swapGas(best, to)
      if (!disableEstimate) {
        const [estimate, allowance] = await batch(state, [
          {
            method: 'eth_estimateGas',
            params: [{ from: user, to: state.router, data, value: toHex(value) }],
          },
          ...(from.native
            ? []
            : [ethCall(from.address, erc20Abi, 'allowance', [user, state.router])]),
        ])
        if (estimate?.ok) gas = (hexToBigInt(estimate.result as Hex) * 6n) / 5n
        else {
          // Before the approval the swap cannot run: the fixed figure stands in.
          const short =
            allowance?.ok && decode<bigint>(erc20Abi as Abi, 'allowance', allowance.result) < amount
          if (!short)
            throw new SwapError(
              'SWAP_WOULD_FAIL',
              `Simulating the swap failed: ${estimate?.error.message ?? 'no answer'}`,
            )
        }
      }
      gas += SWAP_GAS_ORACLE_PER_HOP * BigInt(best.path.length - 1)
      return {
        tx: {
          from: `${chainId}:${user}`,
          to: `${chainId}:${state.router}`,
          data,
          amount: value.toString(),
          eip155: { gas: gas.toString(), gasPrice: gasPrice.toString() },
        },
      }
    },

    async allowance({ chainId, token: tokenAccount, user: userAccount }) {
      const state = stateOf(chainId)
      const token = tokenOf(state, tokenAccount)
      if (token.native) return { allowance: maxUint256.toString() }
      const [result] = await batch(state, [
        ethCall(token.address, erc20Abi, 'allowance', [userOf(userAccount), state.router]),
      ])
      if (!result?.ok)
        throw new SwapError('UNKNOWN_TOKEN', `${token.caip} does not answer allowance()`)
      return { allowance: decode<bigint>(erc20Abi as Abi, 'allowance', result.result).toString() }
    },

    async buildApprove({ chainId, from: fromAccount, to: toAccount, user: userAccount, amount }) {
      const state = stateOf(chainId)
      const token = tokenOf(state, fromAccount)
      if (toAccount) tokenOf(state, toAccount)
      if (token.native)
        throw new SwapError(
          'INVALID_REQUEST',
          `${token.symbol}, the native token, needs no approval`,
        )
      const user = userOf(userAccount)
      const data = encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [state.router, amount ?? maxUint256],
      })
      const [estimate, price] = await batch(state, [
        { method: 'eth_estimateGas', params: [{ from: user, to: token.address, data }] },
        gasPriceCall,
      ])
      return {
        tx: {
          from: `${chainId}:${user}`,
          to: token.caip,
          data,
          value: '0',
          eip155: {
            gas: (estimate?.ok
              ? (hexToBigInt(estimate.result as Hex) * 6n) / 5n
              : APPROVE_GAS
            ).toString(),
            gasPrice: hexResult(price, state, 'eth_gasPrice').toString(),
          },
        },
      }
    },

    // Needs no router: any swap network with an RPC upstream answers.
    async gasPrice({ chainId }) {
      const [result] = await batch({ chainId }, [gasPriceCall])
      const price = hexResult(result, { chainId }, 'eth_gasPrice')
      return {
        standard: price.toString(),
        fast: ((price * 6n) / 5n).toString(),
        instant: ((price * 3n) / 2n).toString(),
      }
    },
  }
}
