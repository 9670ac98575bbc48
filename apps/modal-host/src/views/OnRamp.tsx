/**
 * Buy crypto (spec §3 on-ramp state): OnRamp (amount, currencies, payment method, the quote and
 * the provider) and OnRampStatus (the checkout is open in a popup; the order is followed until
 * the tokens arrive).
 */
import { parseCaipNetworkId } from '@porthole/shared'
import { useEffect } from 'react'
import * as Modal from '../actions/modal.js'
import * as Onramp from '../actions/onramp.js'
import { tt } from '../i18n/trade.js'
import {
  isRestrictedTimezone,
  moneyText,
  onrampAmountError,
  onrampSupportsNamespace,
  purchasableOn,
} from '../rules/onramp.js'
import { initialOnrampState } from '../store/onrampState.js'
import { useModal } from '../store/store.js'
import './transfer.css'

const QUOTE_DEBOUNCE_MS = 400

/** Why buying is not offered here, or null. */
function unavailableReason(
  caipNetworkId: string | null,
  networkName: string,
  providers: string[],
): string | null {
  if (isRestrictedTimezone()) return tt('restrictedRegion')
  let namespace: string | undefined
  try {
    namespace = caipNetworkId ? parseCaipNetworkId(caipNetworkId).namespace : undefined
  } catch {}
  if (!onrampSupportsNamespace(namespace)) return tt('unsupportedNetwork', { network: networkName })
  if (!providers.length) return tt('noProviders')
  return null
}

/** OnRamp: what to pay, what to buy, the quote, and the provider's checkout. */
export function OnRamp() {
  const state = useModal((s) => s.onramp ?? initialOnrampState)
  const connection = useModal((s) => s.connection)
  const network = useModal((s) =>
    s.config.networks.find((n) => n.caipNetworkId === s.connection.caipNetworkId),
  )
  const providers = useModal((s) => s.config.features.onrampProviders)
  useEffect(() => {
    void Onramp.openOnramp()
  }, [])
  const currency = state.paymentCurrencies.find((c) => c.id === state.paymentCurrency)
  const limit = currency?.limits.find((l) => l.id === state.paymentMethod)
  const amountError = state.paymentAmount.trim()
    ? onrampAmountError({ amount: state.paymentAmount, currency: state.paymentCurrency, limit })
    : null
  // biome-ignore lint/correctness/useExhaustiveDependencies: a quote for what is asked
  useEffect(() => {
    if (amountError || !state.paymentAmount.trim()) return
    const timer = setTimeout(() => void Onramp.requestOnrampQuote(), QUOTE_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [state.paymentAmount, state.paymentCurrency, state.purchaseCurrency, amountError])
  const reason = unavailableReason(
    connection.caipNetworkId,
    network?.name ?? connection.caipNetworkId ?? '',
    providers,
  )
  if (reason)
    return (
      <p className="ph-muted ph-center" role="status" data-testid="onramp-unavailable">
        {reason}
      </p>
    )
  const purchasable = purchasableOn(state.purchaseCurrencies, connection.caipNetworkId ?? '')
  const providerName = state.providerName ?? state.selectedProvider ?? ''
  // The provider's options are in and nothing can be bought on this network.
  if (state.purchaseCurrencies.length && !purchasable.length && !state.fallback)
    return (
      <p className="ph-muted ph-center" role="status" data-testid="onramp-unavailable">
        {tt('unsupportedNetwork', { network: network?.name ?? connection.caipNetworkId ?? '' })}
      </p>
    )
  const { quote } = state
  return (
    <form
      className="ph-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        // The popup opens in this click, before anything is awaited.
        if (quote && !amountError) Onramp.startPurchase()
      }}
    >
      {state.fallback ? (
        <p className="ph-muted" role="status" data-testid="onramp-fallback">
          {tt('providerOffline', { provider: providerName })}
        </p>
      ) : null}
      <div className="ph-field">
        <label className="ph-label" htmlFor="ph-onramp-amount">
          {tt('youPay')}
        </label>
        <span className="ph-search ph-flush">
          <input
            id="ph-onramp-amount"
            name="paymentAmount"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0.00"
            data-autofocus
            aria-invalid={!!amountError}
            aria-describedby="ph-onramp-limits"
            value={state.paymentAmount}
            onChange={(event) => Onramp.setOnrampField({ paymentAmount: event.target.value })}
          />
          <select
            aria-label={tt('paymentCurrency')}
            value={state.paymentCurrency}
            onChange={(event) => Onramp.setOnrampField({ paymentCurrency: event.target.value })}
          >
            {state.paymentCurrencies.map((c) => (
              <option key={c.id} value={c.id}>
                {c.id}
              </option>
            ))}
          </select>
        </span>
        {amountError ? (
          <span className="ph-field-error" role="alert" data-testid="onramp-amount-error">
            {amountError}
          </span>
        ) : limit ? (
          <span className="ph-muted" id="ph-onramp-limits" data-testid="onramp-limits">
            {tt('limits', { min: limit.min, max: limit.max, currency: state.paymentCurrency })}
          </span>
        ) : null}
      </div>
      <fieldset className="ph-field ph-choice">
        <legend className="ph-label">{tt('paymentMethod')}</legend>
        {(currency?.limits ?? []).map((method) => (
          <label key={method.id} className="ph-row ph-select">
            <input
              type="radio"
              name="paymentMethod"
              value={method.id}
              checked={state.paymentMethod === method.id}
              onChange={() => Onramp.setOnrampField({ paymentMethod: method.id })}
            />
            <span className="ph-row-name">
              {method.id === 'card' || method.id === 'ach_bank_account' ? tt(method.id) : method.id}
            </span>
          </label>
        ))}
      </fieldset>
      <label className="ph-field">
        <span className="ph-label">{tt('purchaseCurrency')}</span>
        <select
          className="ph-row ph-select"
          name="purchaseCurrency"
          value={state.purchaseCurrency}
          onChange={(event) => Onramp.setOnrampField({ purchaseCurrency: event.target.value })}
        >
          {purchasable.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name} ({c.symbol})
            </option>
          ))}
        </select>
      </label>
      {quote ? (
        <dl className="ph-details" data-testid="onramp-quote">
          <dt>{tt('youGet')}</dt>
          <dd data-testid="onramp-purchase-amount">
            {quote.purchaseAmount.amount} {quote.purchaseAmount.currency}
          </dd>
          <dt>{tt('fee')}</dt>
          <dd>{moneyText(quote.networkFee)}</dd>
          <dt>{tt('total')}</dt>
          <dd>{moneyText(quote.paymentTotal)}</dd>
        </dl>
      ) : null}
      {state.error ? (
        <p className="ph-field-error" role="alert" data-testid="onramp-error">
          {state.error}
        </p>
      ) : null}
      <p className="ph-visually-hidden" aria-live="polite">
        {state.quotesLoading ? tt('gettingQuote') : ''}
      </p>
      <button
        type="submit"
        className="ph-button"
        data-testid="onramp-continue"
        disabled={!quote || !!amountError || state.quotesLoading}
      >
        {state.quotesLoading ? tt('gettingQuote') : tt('continueWith', { provider: providerName })}
      </button>
    </form>
  )
}

/** OnRampStatus: the checkout is open; the order's progress, and a way back to it. */
export function OnRampStatus({ orderId, provider }: { orderId: string; provider: string }) {
  const state = useModal((s) => s.onramp ?? initialOnrampState)
  const name = state.providerName ?? provider
  return (
    <div className="ph-center ph-form" aria-live="polite" data-testid="onramp-status">
      <span className="ph-loader" />
      <h3>{tt('checkoutOpen', { provider: name })}</h3>
      <p className="ph-muted">{tt('checkoutHint')}</p>
      {state.error ? (
        <>
          <p className="ph-field-error" role="alert" data-testid="onramp-error">
            {state.error}
          </p>
          <button
            type="button"
            className="ph-button"
            onClick={() => Onramp.reopenCheckout(orderId)}
          >
            {tt('reopenCheckout')}
          </button>
        </>
      ) : null}
      <button type="button" className="ph-button" data-variant="secondary" onClick={Modal.back}>
        {tt('done')}
      </button>
    </div>
  )
}
