/**
 * Swap (spec §2 swap view): Swap (tokens and amounts, quoted as the user types), SwapSelectToken
 * (the user's balances for the from-side, the network's tokens with popular ones first for the
 * to-side) and SwapPreview (the quote's details, approve when needed, then swap).
 */
import { SWAP_SLIPPAGE } from '@porthole/shared'
import { useEffect, useState } from 'react'
import * as Modal from '../actions/modal.js'
import * as Swapping from '../actions/swap.js'
import { currentTokens } from '../actions/tokens.js'
import { Icon } from '../components/Icon.js'
import { Picture } from '../components/Images.js'
import { locale, t } from '../i18n/en.js'
import { tt } from '../i18n/trade.js'
import {
  formatDecimal,
  localizeDecimal,
  readTypedAmount,
  typedAmountOf,
} from '../rules/decimals.js'
import {
  displayAmount,
  formatPercent,
  isNativeToken,
  minimumReceived,
  quoteRate,
  type SwapAsset,
  sameToken,
} from '../rules/swap.js'
import { formatUsd } from '../rules/tokens.js'
import { useModal } from '../store/store.js'
import './transfer.css'
import { initialSwapState } from '../store/swapState.js'

/** Quotes wait this long after the last keystroke. */
const QUOTE_DEBOUNCE_MS = 400
/** A visible quote is refreshed this often (the pool moves). */
const QUOTE_REFRESH_MS = 10_000
/** Above this price impact (percent) the preview warns. */
const HIGH_PRICE_IMPACT = 5
/** How many of the network's tokens show as "popular" chips. */
const POPULAR_COUNT = 4

/** The swap state as views read it. */
function useSwap() {
  return useModal((s) => s.swap ?? initialSwapState)
}

/**
 * Quotes after typing stops, and again every 10 s while the view is visible (a hidden tab or a
 * closed modal does not poll).
 */
function useQuotes() {
  const swap = useSwap()
  const open = useModal((s) => s.open)
  const typed = swap.edited === 'from' ? swap.fromAmount : swap.toAmount
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new quote when what is asked changes
  useEffect(() => {
    const timer = setTimeout(() => void Swapping.requestQuote(), QUOTE_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [typed, swap.edited, swap.fromToken?.address, swap.toToken?.address])
  useEffect(() => {
    if (!open) return
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && Swapping.swapState().step === 'idle')
        void Swapping.requestQuote()
    }, QUOTE_REFRESH_MS)
    return () => clearInterval(timer)
  }, [open])
}

/** Why the last swap or approval failed, else why the quote failed; nothing when neither. */
function SwapError({ swap }: { swap: ReturnType<typeof useSwap> }) {
  const message = swap.failure ?? swap.error
  return message ? (
    <p className="ph-field-error" role="alert" data-testid="swap-error">
      {message}
    </p>
  ) : null
}

/** A token button: its logo and symbol, or "Select token". */
function TokenButton({ side, asset }: { side: 'from' | 'to'; asset: SwapAsset | null }) {
  return (
    <button
      type="button"
      className="ph-row ph-select ph-token-button"
      data-testid={`swap-${side}-token`}
      onClick={() => Modal.push({ view: 'SwapSelectToken', side })}
    >
      {asset ? (
        <>
          <Picture src={asset.logoUri ?? ''} name={asset.symbol} size={24} />
          <span>{asset.symbol}</span>
        </>
      ) : (
        <span className="ph-muted">{tt('selectToken')}</span>
      )}
      <Icon name="chevron" size={14} />
    </button>
  )
}

/** One side of the swap: label, amount, token and (from-side) balance with Max. */
function SwapSide({ side }: { side: 'from' | 'to' }) {
  const swap = useSwap()
  const asset = side === 'from' ? swap.fromToken : swap.toToken
  const amount = side === 'from' ? swap.fromAmount : swap.toAmount
  const quoting = swap.quoteLoading && swap.edited !== side
  // The amount as typed ('1,5' in German) read as a number for its USD value.
  const plain = amount ? readTypedAmount(amount, locale()) : undefined
  const value =
    asset?.price && plain && Number.isFinite(Number(plain))
      ? formatUsd(Number(plain) * asset.price)
      : null
  return (
    <div className="ph-field ph-swap-side">
      <label className="ph-label" htmlFor={`ph-swap-${side}`}>
        {tt(side === 'from' ? 'swapFrom' : 'swapTo')}
      </label>
      <span className="ph-search ph-flush">
        <input
          id={`ph-swap-${side}`}
          name={`${side}Amount`}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0"
          aria-busy={quoting}
          {...(side === 'from' ? { 'data-autofocus': true } : {})}
          value={quoting ? '' : amount}
          onChange={(event) => Swapping.setAmount(side, event.target.value)}
        />
        <TokenButton side={side} asset={asset} />
      </span>
      <span className="ph-swap-meta ph-muted">
        <span>{value ?? ''}</span>
        {asset?.balance !== undefined ? (
          <span>
            {tt('balance', { amount: formatDecimal({ value: asset.balance, digits: 3 }) })}
            {/* Not for the native token: the network fee is paid in it too. */}
            {side === 'from' && asset.balance !== '0' && !isNativeToken(asset.address) ? (
              <button
                type="button"
                className="ph-link-button"
                onClick={() =>
                  Swapping.setAmount('from', typedAmountOf(asset.balance ?? '0', locale()))
                }
              >
                {tt('max')}
              </button>
            ) : null}
          </span>
        ) : null}
      </span>
    </div>
  )
}

/** Swap: from and to, the rate and the action that fits the state. */
export function Swap() {
  const swap = useSwap()
  useEffect(() => {
    void Swapping.openSwap()
  }, [])
  useQuotes()
  const { fromToken, toToken, quote } = swap
  const action = !fromToken || !toToken ? tt('selectToken') : !quote ? tt('enterAmount') : null
  return (
    <form
      className="ph-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        if (quote) Modal.push({ view: 'SwapPreview' })
      }}
    >
      <SwapSide side="from" />
      <button
        type="button"
        className="ph-icon-button ph-swap-switch"
        aria-label={tt('swapSwitch')}
        onClick={Swapping.switchTokens}
      >
        <Icon name="swap" size={18} />
      </button>
      <SwapSide side="to" />
      {quote && fromToken && toToken ? (
        <p className="ph-muted ph-center" data-testid="swap-rate">
          {localizeDecimal('1')} {fromToken.symbol} ≈{' '}
          {localizeDecimal(
            quoteRate({
              fromAmount: BigInt(quote.fromAmount),
              toAmount: BigInt(quote.toAmount),
              fromDecimals: fromToken.decimals,
              toDecimals: toToken.decimals,
            }),
          )}{' '}
          {toToken.symbol}
        </p>
      ) : null}
      <SwapError swap={swap} />
      <p className="ph-visually-hidden" aria-live="polite">
        {swap.quoteLoading ? tt('gettingQuote') : ''}
      </p>
      <button type="submit" className="ph-button" disabled={!!action || swap.quoteLoading}>
        {swap.quoteLoading ? tt('gettingQuote') : (action ?? tt('reviewSwap'))}
      </button>
    </form>
  )
}

/** SwapSelectToken: the user's balances (from) or the network's tokens, popular first (to). */
export function SwapSelectToken({ side }: { side: 'from' | 'to' }) {
  const swap = useSwap()
  const balances = useModal((s) => currentTokens(s))
  const [query, setQuery] = useState('')
  const wanted = query.trim().toLowerCase()
  const listed: SwapAsset[] =
    side === 'from'
      ? Swapping.balanceAssets(balances).filter((asset) =>
          swap.tokens?.some((token) => sameToken(token.address, asset.address)),
        )
      : (swap.tokens ?? []).map((token) => ({ ...token }))
  const list = listed.filter(
    (asset) =>
      !wanted ||
      asset.symbol.toLowerCase().includes(wanted) ||
      asset.name.toLowerCase().includes(wanted) ||
      asset.address.toLowerCase().endsWith(wanted),
  )
  const choose = (asset: SwapAsset) => {
    Swapping.chooseToken(side, asset)
    Modal.back()
  }
  const popular = side === 'to' && !wanted ? listed.slice(0, POPULAR_COUNT) : []
  return (
    <>
      <label className="ph-search">
        <Icon name="search" size={18} />
        <span className="ph-visually-hidden">{tt('searchToken')}</span>
        <input
          type="search"
          placeholder={tt('searchToken')}
          value={query}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          onChange={(event) => setQuery(event.target.value)}
        />
      </label>
      {popular.length ? (
        <fieldset className="ph-chips ph-choice" aria-label={tt('popularTokens')}>
          {popular.map((asset) => (
            <button
              key={asset.address}
              type="button"
              className="ph-chip"
              onClick={() => choose(asset)}
            >
              <Picture src={asset.logoUri ?? ''} name={asset.symbol} size={18} />
              {asset.symbol}
            </button>
          ))}
        </fieldset>
      ) : null}
      <h3 className="ph-label">{tt(side === 'from' ? 'yourTokens' : 'allTokens')}</h3>
      <ul className="ph-list" data-testid="swap-token-list">
        {list.map((asset) => (
          <li key={asset.address}>
            <button type="button" className="ph-row" onClick={() => choose(asset)}>
              <Picture src={asset.logoUri ?? ''} name={asset.symbol} size={36} />
              <span className="ph-row-name ph-stack">
                <span>{asset.name}</span>
                <span className="ph-muted">{asset.symbol}</span>
              </span>
              {asset.balance !== undefined ? (
                <span className="ph-amount">
                  {formatDecimal({ value: asset.balance, digits: 3 })}
                </span>
              ) : null}
            </button>
          </li>
        ))}
      </ul>
      {!list.length ? <p className="ph-muted ph-center">{tt('noTokens')}</p> : null}
    </>
  )
}

/** SwapPreview: what is swapped for what, the quote's costs, then approve (if needed) and swap. */
export function SwapPreview() {
  const swap = useSwap()
  useQuotes()
  const { fromToken, toToken, quote, step } = swap
  if (!fromToken || !toToken || !quote)
    return (
      <div className="ph-form">
        {swap.failure || swap.error ? (
          <SwapError swap={swap} />
        ) : (
          <p className="ph-muted ph-center">{tt('gettingQuote')}</p>
        )}
        <button type="button" className="ph-button" data-variant="secondary" onClick={Modal.back}>
          {t('back')}
        </button>
      </div>
    )
  const toAmount = BigInt(quote.toAmount)
  const impact = quote.priceImpact
  const mustApprove = Swapping.approvalNeeded(swap)
  const networkFee = Swapping.quoteNetworkFee(swap)
  if (step !== 'idle')
    return (
      <div className="ph-center" aria-live="polite" data-testid="swap-pending">
        <span className="ph-loader">
          <Picture src={fromToken.logoUri ?? ''} name={fromToken.symbol} size={72} />
        </span>
        <h3>{tt('approveInWallet')}</h3>
        <p className="ph-muted">{tt(step === 'approving' ? 'approving' : 'swapping')}</p>
      </div>
    )
  return (
    <div className="ph-form" data-testid="swap-preview">
      <div className="ph-preview">
        <strong className="ph-preview-amount">
          {tt('swapSummary', {
            from: `${localizeDecimal(displayAmount(BigInt(quote.fromAmount), fromToken.decimals, 4))} ${fromToken.symbol}`,
            to: `${localizeDecimal(displayAmount(toAmount, toToken.decimals, 4))} ${toToken.symbol}`,
          })}
        </strong>
      </div>
      <dl className="ph-details">
        <dt>{tt('rate')}</dt>
        <dd>
          {localizeDecimal('1')} {fromToken.symbol} ≈{' '}
          {localizeDecimal(
            quoteRate({
              fromAmount: BigInt(quote.fromAmount),
              toAmount,
              fromDecimals: fromToken.decimals,
              toDecimals: toToken.decimals,
            }),
          )}{' '}
          {toToken.symbol}
        </dd>
        {impact !== undefined ? (
          <>
            <dt>{tt('priceImpact')}</dt>
            <dd data-testid="swap-price-impact">
              {impact < 0.01 ? `< ${formatPercent(0.01, 2)}` : formatPercent(impact, 2)}
            </dd>
          </>
        ) : null}
        {quote.fee ? (
          <>
            <dt>{tt('poolFee')}</dt>
            <dd>
              {localizeDecimal(displayAmount(BigInt(quote.fee.amount), fromToken.decimals, 6))}{' '}
              {fromToken.symbol}
            </dd>
          </>
        ) : null}
        {networkFee !== undefined ? (
          <>
            <dt>{tt('networkFee')}</dt>
            <dd data-testid="swap-network-fee">{formatUsd(networkFee)}</dd>
          </>
        ) : null}
        <dt>{tt('minimumReceived')}</dt>
        <dd data-testid="swap-minimum">
          {localizeDecimal(displayAmount(minimumReceived(toAmount), toToken.decimals, 6))}{' '}
          {toToken.symbol}
        </dd>
        <dt>{tt('slippage')}</dt>
        <dd>{formatPercent(SWAP_SLIPPAGE)}</dd>
      </dl>
      {impact !== undefined && impact > HIGH_PRICE_IMPACT ? (
        <p className="ph-field-error" role="alert">
          {tt('highPriceImpact', { impact: formatPercent(impact, 2) })}
        </p>
      ) : null}
      <SwapError swap={swap} />
      {mustApprove ? (
        <>
          <p className="ph-muted">{tt('approveHint', { symbol: fromToken.symbol })}</p>
          <button
            type="button"
            className="ph-button"
            data-testid="swap-approve"
            onClick={() => void Swapping.approve()}
          >
            {tt('approveToken', { symbol: fromToken.symbol })}
          </button>
        </>
      ) : (
        <button
          type="button"
          className="ph-button"
          data-testid="swap-confirm"
          onClick={() => void Swapping.swap()}
        >
          {tt('swapConfirm')}
        </button>
      )}
    </div>
  )
}
