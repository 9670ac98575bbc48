/**
 * Swap (spec §2 swap view, §7 `/v1/convert/*`): the user picks a from-token among their
 * balances and a to-token among the network's, types an amount on either side and gets a quote;
 * when the exchange may not yet spend the from-token the wallet approves exactly the amount
 * first, then the wallet confirms the swap. Balances refresh once the swap is mined. A swap the
 * chain would refuse (price moved past the 1 % slippage) is refused before anything is sent.
 */
import { type BalanceEntry, parseCaipAddress } from '@porthole/shared'
import { getPrices } from '../api/blockchain.js'
import {
  buildSwapApproval,
  buildSwapTransaction,
  getSwapAllowance,
  getSwapGasPrice,
  getSwapQuotes,
  getSwapTokens,
} from '../api/trade.js'
import { chainClient, waitForTransactionReceipt } from '../chain/client.js'
import { locale } from '../i18n/en.js'
import { tt } from '../i18n/trade.js'
import { typedAmountOf } from '../rules/decimals.js'
import {
  assetOfBalance,
  displayAmount,
  fromForTo,
  isNativeToken,
  nativeTokenId,
  needsApproval,
  networkFeeUsd,
  parseSwapAmount,
  type SwapAsset,
  sameToken,
  swapErrorMessage,
} from '../rules/swap.js'
import { store } from '../store/store.js'
import { initialSwapState, type SwapState } from '../store/swapState.js'
import { track } from './analytics.js'
import * as Balance from './balance.js'
import { connectorRequest } from './connection.js'
import * as Modal from './modal.js'
import { currentTokens, refreshTokens } from './tokens.js'

/** The swap state, created on first use. */
export function swapState(): SwapState {
  return store.getState().swap ?? initialSwapState
}

function update(fields: Partial<SwapState>): void {
  store.setState((s) => ({ swap: { ...(s.swap ?? initialSwapState), ...fields } }))
}

/**
 * Prepares the swap view for the active network: a switch of network starts over; the tokens
 * are loaded and the from-token defaults to the native one. Errors (the spec's 'Network not
 * supported for Swaps') land in `error`.
 *
 * @example
 * await openSwap()
 */
export async function openSwap(): Promise<void> {
  const { connection } = store.getState()
  const caipNetworkId = connection.caipNetworkId
  if (swapState().caipNetworkId !== caipNetworkId)
    store.setState({ swap: { ...initialSwapState, caipNetworkId } })
  if (!caipNetworkId) return
  // The balances may still be on their way (a visit that opens Swap at once): the chosen tokens
  // take them when they arrive, or they would show 0 and refuse every amount.
  void refreshTokens().then(rebalance, rebalance)
  if (swapState().gasPrice === null) void loadMarket(caipNetworkId)
  if (swapState().tokens) return defaultFromToken()
  try {
    const { tokens } = await getSwapTokens(caipNetworkId)
    if (swapState().caipNetworkId !== caipNetworkId) return
    update({ tokens, error: null })
    defaultFromToken()
  } catch (error) {
    if (swapState().caipNetworkId === caipNetworkId) update({ error: swapErrorMessage(error) })
  }
}

/**
 * What prices a quote's network fee (spec §7): the network's gas price (`/v1/convert/gas-price`,
 * also sent with each quote) and the native token's USD price (`/v1/fungible/price`).
 */
async function loadMarket(caipNetworkId: string): Promise<void> {
  const [gas] = await Promise.allSettled([
    getSwapGasPrice(caipNetworkId),
    loadPrice(nativeTokenId(caipNetworkId)),
  ])
  // Without it the quote is priced at the API's own gas price, and its fee shown as the API gives it.
  if (gas.status === 'fulfilled' && swapState().caipNetworkId === caipNetworkId)
    update({ gasPrice: gas.value.standard })
}

/**
 * A token's USD price from `/v1/fungible/price` into `prices` (once per token and network); the
 * user's balances already carry the prices of what they hold. A token the API cannot price shows
 * no USD value.
 */
async function loadPrice(id: string): Promise<void> {
  const key = id.toLowerCase()
  const { caipNetworkId, prices } = swapState()
  if (key in prices) return
  const [fungible] = await getPrices([id])
    .then((answer) => answer.fungibles)
    // No price: the amount shows without its USD value, as for a token the API does not know.
    .catch(() => [])
  const price = fungible && fungible.price > 0 ? fungible.price : undefined
  if (swapState().caipNetworkId !== caipNetworkId || price === undefined) return
  update({ prices: { ...swapState().prices, [key]: price } })
  // A side showing this token without a price gets it.
  const { fromToken, toToken } = swapState()
  if (fromToken && !fromToken.price && sameToken(fromToken.address, id))
    update({ fromToken: { ...fromToken, price } })
  if (toToken && !toToken.price && sameToken(toToken.address, id))
    update({ toToken: { ...toToken, price } })
}

/** Both chosen tokens with the user's balances as they are now. */
function rebalance(): void {
  const { fromToken, toToken } = swapState()
  update({
    fromToken: fromToken ? withBalance(fromToken) : null,
    toToken: toToken ? withBalance(toToken) : null,
  })
}

/** The from-token defaults to the network's native token, with the user's balance. */
function defaultFromToken(): void {
  const { fromToken, tokens } = swapState()
  if (fromToken || !tokens) return
  const native = tokens.find((token) => isNativeToken(token.address))
  if (native) update({ fromToken: withBalance({ ...native }) })
}

/** The user's balances as swap assets (the from-side's list). */
export function balanceAssets(entries: readonly BalanceEntry[] | undefined): SwapAsset[] {
  return (entries ?? []).map(assetOfBalance)
}

/** The asset with the user's current balance and price, when they hold it. */
function withBalance(asset: SwapAsset): SwapAsset {
  const held = balanceAssets(currentTokens(store.getState())).find((entry) =>
    sameToken(entry.address, asset.address),
  )
  if (held) return { ...asset, balance: held.balance, price: held.price }
  const price = swapState().prices[asset.address.toLowerCase()]
  return price === undefined ? { ...asset, balance: '0' } : { ...asset, balance: '0', price }
}

/**
 * Chooses a token for a side; choosing the other side's token swaps the two.
 *
 * @example
 * chooseToken('to', pUSD)
 */
export function chooseToken(side: 'from' | 'to', asset: SwapAsset): void {
  const state = swapState()
  const other = side === 'from' ? state.toToken : state.fromToken
  const chosen = withBalance(asset)
  if (other && sameToken(other.address, asset.address)) {
    switchTokens()
    return
  }
  if (!chosen.price) void loadPrice(chosen.address)
  update({
    ...(side === 'from' ? { fromToken: chosen, allowance: null } : { toToken: chosen }),
    quote: null,
    error: null,
    failure: null,
    ...(state.edited === 'from' ? { toAmount: '' } : { fromAmount: '' }),
  })
}

/**
 * Switches from and to (the typed amount moves with its token).
 *
 * @example
 * switchTokens()
 */
export function switchTokens(): void {
  const { fromToken, toToken, fromAmount, toAmount, edited } = swapState()
  update({
    fromToken: toToken ? withBalance(toToken) : null,
    toToken: fromToken,
    fromAmount: toAmount,
    toAmount: fromAmount,
    edited: edited === 'from' ? 'to' : 'from',
    quote: null,
    allowance: null,
    error: null,
    failure: null,
  })
}

/**
 * Sets the amount the user typed on a side; the other side waits for the next quote.
 *
 * @example
 * setAmount('from', '0.5')
 */
export function setAmount(side: 'from' | 'to', amount: string): void {
  update(
    side === 'from'
      ? { fromAmount: amount, edited: 'from', quote: null, error: null, failure: null }
      : { toAmount: amount, edited: 'to', quote: null, error: null, failure: null },
  )
}

/**
 * The quote's network fee in USD, priced with the network's gas price and the native token's
 * price when known (else the API's own figure); `undefined` when nothing prices it.
 *
 * @example
 * const fee = quoteNetworkFee(swapState())
 */
export function quoteNetworkFee(state: SwapState): number | undefined {
  if (!state.quote || !state.caipNetworkId) return undefined
  const native = nativeTokenId(state.caipNetworkId)
  return networkFeeUsd({
    quote: state.quote,
    gasPrice: state.gasPrice,
    nativePrice: state.prices[native.toLowerCase()],
    nativeDecimals: state.tokens?.find((token) => isNativeToken(token.address))?.decimals ?? 18,
  })
}

/** The quote's `gasPrice` parameter: the network's, once `/v1/convert/gas-price` gave it. */
function gasPriceOf(state: SwapState): { gasPrice?: string } {
  return state.gasPrice ? { gasPrice: state.gasPrice } : {}
}

/** The connected account as CAIP-10. */
function userAccount(): string {
  const { connection } = store.getState()
  if (!connection.address || !connection.caipNetworkId) throw new Error('Not connected')
  return `${connection.caipNetworkId}:${connection.address}`
}

/**
 * Quotes what the user typed: a from-amount directly, a to-amount through the last rate (the
 * from-amount it needs is estimated, then quoted). Checks the balance first. Stale answers
 * (the user typed on) are dropped.
 *
 * @example
 * await requestQuote()
 */
export async function requestQuote(): Promise<void> {
  const asked = swapState()
  const { fromToken, toToken, edited } = asked
  const typed = edited === 'from' ? asked.fromAmount : asked.toAmount
  if (!fromToken || !toToken || !typed.trim()) return update({ quote: null, quoteLoading: false })
  if (sameToken(fromToken.address, toToken.address))
    return update({ error: tt('sameToken'), quote: null })
  const stillAsked = () => {
    const now = swapState()
    return (
      now.fromToken === fromToken &&
      now.toToken === toToken &&
      now.edited === edited &&
      (edited === 'from' ? now.fromAmount : now.toAmount) === typed
    )
  }
  update({ quoteLoading: true, error: null })
  try {
    const userAddress = userAccount()
    let amount: bigint
    // As the user typed it: '1,5' is 1.5 in German.
    if (edited === 'from') amount = parseSwapAmount(typed, fromToken, locale())
    else {
      const wanted = parseSwapAmount(typed, { ...toToken, balance: undefined }, locale())
      // One unit of the from-token shows the rate; the from-amount follows from it.
      const probe = 10n ** BigInt(fromToken.decimals)
      const [rate] = (
        await getSwapQuotes({
          from: fromToken.address,
          to: toToken.address,
          amount: probe.toString(),
          userAddress,
          ...gasPriceOf(asked),
        })
      ).quotes
      if (!rate) throw new Error(tt('insufficientLiquidity'))
      amount = fromForTo({
        toAmount: wanted,
        quoteFrom: BigInt(rate.fromAmount),
        quoteTo: BigInt(rate.toAmount),
      })
      // The balance check of the from-side, now that its amount is known.
      parseSwapAmount(displayAmount(amount, fromToken.decimals, fromToken.decimals), fromToken)
    }
    const [quote] = (
      await getSwapQuotes({
        from: fromToken.address,
        to: toToken.address,
        amount: amount.toString(),
        userAddress,
        ...gasPriceOf(asked),
      })
    ).quotes
    if (!stillAsked()) return
    if (!quote) throw new Error(tt('insufficientLiquidity'))
    // The quoted side, written as the user would type it (it may be edited or switched next).
    const other =
      edited === 'from'
        ? {
            toAmount: typedAmountOf(
              displayAmount(BigInt(quote.toAmount), toToken.decimals),
              locale(),
            ),
          }
        : {
            fromAmount: typedAmountOf(
              displayAmount(BigInt(quote.fromAmount), fromToken.decimals),
              locale(),
            ),
          }
    update({ quote, quoteLoading: false, ...other })
    if (!isNativeToken(fromToken.address)) void checkAllowance()
  } catch (error) {
    if (stillAsked()) update({ quote: null, quoteLoading: false, error: swapErrorMessage(error) })
  }
}

/**
 * Reads how much of the from-token the exchange may spend.
 *
 * @example
 * await checkAllowance()
 */
export async function checkAllowance(): Promise<void> {
  const { fromToken } = swapState()
  if (!fromToken || isNativeToken(fromToken.address)) return update({ allowance: null })
  try {
    const { allowance } = await getSwapAllowance({
      tokenAddress: fromToken.address,
      userAddress: userAccount(),
    })
    if (swapState().fromToken === fromToken) update({ allowance })
  } catch (error) {
    update({ error: swapErrorMessage(error) })
  }
}

/** Whether the quoted swap must be approved first. */
export function approvalNeeded(state: SwapState): boolean {
  if (!state.quote || !state.fromToken) return false
  return needsApproval({
    from: state.fromToken.address,
    amount: BigInt(state.quote.fromAmount),
    allowance: state.allowance === null ? null : BigInt(state.allowance),
  })
}

/** The configured network of the swap. */
function swapNetwork() {
  const { config, swap } = store.getState()
  const network = config.networks.find((n) => n.caipNetworkId === swap?.caipNetworkId)
  if (!network) throw new Error('Network not found')
  return network
}

/** A transaction the convert endpoints built, as the wallet's `eth_sendTransaction` takes it. */
function walletTransaction(tx: { from: string; to: string; data: string; value: bigint }) {
  // The wallet estimates the gas itself: a swap the chain would refuse (the price moved) fails
  // there, before anything is signed or sent.
  return {
    from: parseCaipAddress(tx.from).address,
    to: parseCaipAddress(tx.to).address,
    data: tx.data,
    value: `0x${tx.value.toString(16)}`,
  }
}

/** Sends through the wallet and waits until the transaction is mined; a revert throws. */
async function sendAndWait(tx: ReturnType<typeof walletTransaction>): Promise<string> {
  const hash = String(await connectorRequest('eth_sendTransaction', [tx])) as `0x${string}`
  const receipt = await waitForTransactionReceipt(chainClient(swapNetwork()), {
    hash,
    timeout: 120_000,
  })
  if (receipt.status !== 'success') throw new Error(tt('swapReverted'))
  return hash
}

/** The quoted swap's parameters. */
function quoted() {
  const { fromToken, toToken, quote } = swapState()
  if (!fromToken || !toToken || !quote) throw new Error(tt('enterAmount'))
  return { from: fromToken.address, to: toToken.address, amount: quote.fromAmount }
}

/**
 * Approves exactly the quoted amount (the wallet confirms), waits until it is mined and reads
 * the allowance again. Errors land in `error`; the amounts stay.
 *
 * @example
 * await approve()
 */
export async function approve(): Promise<void> {
  update({ step: 'approving', error: null, failure: null })
  try {
    const parameters = { ...quoted(), userAddress: userAccount() }
    const { tx } = await buildSwapApproval(parameters)
    await sendAndWait(walletTransaction({ ...tx, value: BigInt(tx.value || '0') }))
    await checkAllowance()
    update({ step: 'idle' })
  } catch (error) {
    update({ step: 'idle', failure: swapErrorMessage(error) })
    Modal.shake()
  }
}

/**
 * Swaps at the spec's slippage tolerance (the wallet confirms), waits until it is mined, shows
 * 'Swapped … for …', refreshes the balances and returns to Account. A failure keeps the amounts
 * and shows why (slippage, liquidity, a refusal in the wallet).
 *
 * @example
 * await swap()
 */
export async function swap(): Promise<void> {
  const state = swapState()
  const { fromToken, toToken, quote } = state
  const properties = {
    network: state.caipNetworkId ?? '',
    from: fromToken?.symbol ?? '',
    to: toToken?.symbol ?? '',
  }
  update({ step: 'swapping', error: null, failure: null })
  track('SWAP_INITIATED', properties)
  try {
    const parameters = { ...quoted(), userAddress: userAccount() }
    const { tx } = await buildSwapTransaction(parameters)
    await sendAndWait(walletTransaction({ ...tx, value: BigInt(tx.amount) }))
    track('SWAP_SUCCESS', properties)
    const summary = tt('swapped', {
      from: `${state.fromAmount} ${fromToken?.symbol}`,
      to: `${displayAmount(BigInt(quote?.toAmount ?? '0'), toToken?.decimals ?? 18, 4)} ${toToken?.symbol}`,
    })
    update({ ...initialSwapState, caipNetworkId: state.caipNetworkId, tokens: state.tokens })
    store.setState({ history: [{ view: 'Account' }], accountTab: 'tokens' })
    Modal.showToast(summary, 'success')
    void Balance.refresh({ force: true })
    void refreshTokens({ force: true })
  } catch (error) {
    track('SWAP_ERROR', { ...properties, message: (error as Error).message ?? '' })
    update({ step: 'idle', failure: swapErrorMessage(error) })
    Modal.shake()
  }
}

// A network switch starts the swap over (like Send, spec §4).
store.subscribe((state, previous) => {
  if (state.swap && state.connection.caipNetworkId !== previous.connection.caipNetworkId)
    store.setState({ swap: { ...initialSwapState, caipNetworkId: state.connection.caipNetworkId } })
})
