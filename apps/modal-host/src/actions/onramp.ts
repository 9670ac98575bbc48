/**
 * Buy crypto (spec §3 on-ramp state, §4 "On-ramp", §5, §7): options and quotes from the API (the
 * fallback table when the provider cannot be reached), the provider's checkout in a popup opened
 * by the user's click, then the order followed until the funds arrive and show in Tokens.
 */
import { isWebPageUrl, parseCaipNetworkId } from '@porthole/shared'
import {
  generateOnrampUrl,
  getOnrampOptions,
  getOnrampOrder,
  getOnrampQuote,
} from '../api/trade.js'
import { tt } from '../i18n/trade.js'
import { FALLBACK_ONRAMP_OPTIONS, onrampProviders, purchasableOn } from '../rules/onramp.js'
import { swapErrorMessage } from '../rules/swap.js'
import { initialOnrampState, type OnrampState } from '../store/onrampState.js'
import { store } from '../store/store.js'
import { track } from './analytics.js'
import * as Balance from './balance.js'
import * as Modal from './modal.js'
import { refreshTokens } from './tokens.js'

/** How often the order's status is read while the checkout is open. */
export const ORDER_POLL_MS = 2000
const POPUP = { pollMs: 1000 }
const openBlankPopup = (name: string) =>
  window.open('about:blank', name, 'popup=yes,width=600,height=800')

/** The on-ramp state, created on first use. */
export function onrampState(): OnrampState {
  return store.getState().onramp ?? initialOnrampState
}

function update(fields: Partial<OnrampState>): void {
  store.setState((s) => ({ onramp: { ...(s.onramp ?? initialOnrampState), ...fields } }))
}

/**
 * Spec §4: reset restores the defaults (the providers stay: they are the project's).
 *
 * @example
 * resetOnramp()
 */
export function resetOnramp(): void {
  const { providers, selectedProvider } = onrampState()
  store.setState({ onramp: { ...initialOnrampState, providers, selectedProvider } })
}

/**
 * Prepares the view: the project's providers (the first is selected), then the options; when
 * they cannot be read, the spec's fallback table, flagged so the view says so.
 *
 * @example
 * await openOnramp()
 */
export async function openOnramp(): Promise<void> {
  const providers = onrampProviders(store.getState().config.features.onrampProviders)
  const selected = onrampState().selectedProvider
  update({
    providers,
    selectedProvider: selected && providers.includes(selected) ? selected : (providers[0] ?? null),
    error: null,
  })
  if (!providers.length) return
  let options = FALLBACK_ONRAMP_OPTIONS
  try {
    options = await getOnrampOptions()
  } catch {}
  const caipNetworkId = store.getState().connection.caipNetworkId ?? ''
  const purchasable = purchasableOn(options.purchaseCurrencies, caipNetworkId)
  const current = onrampState()
  update({
    paymentCurrencies: options.paymentCurrencies,
    purchaseCurrencies: options.purchaseCurrencies,
    providerName: options.provider?.name ?? null,
    fallback: options.fallback === true,
    purchaseCurrency: purchasable.some((c) => c.id === current.purchaseCurrency)
      ? current.purchaseCurrency
      : (purchasable[0]?.id ?? current.purchaseCurrency),
  })
}

/**
 * Changes what is bought or paid with; the quote is asked again.
 *
 * @example
 * setOnrampField({ paymentAmount: '50' })
 */
export function setOnrampField(
  fields: Partial<
    Pick<OnrampState, 'paymentAmount' | 'paymentCurrency' | 'purchaseCurrency' | 'paymentMethod'>
  >,
): void {
  update({ ...fields, quote: null, purchaseAmount: null, error: null })
}

/**
 * Asks the quote for what is typed (spec §4: quotesLoading while it runs; an error stores its
 * message). Stale answers are dropped.
 *
 * @example
 * await requestOnrampQuote()
 */
export async function requestOnrampQuote(): Promise<void> {
  const asked = onrampState()
  const network = store.getState().connection.caipNetworkId
  if (!network || !asked.paymentAmount.trim()) return
  update({ quotesLoading: true, error: null })
  try {
    const quote = await getOnrampQuote({
      purchaseCurrency: asked.purchaseCurrency,
      paymentCurrency: asked.paymentCurrency,
      amount: asked.paymentAmount.trim(),
      network,
    })
    const now = onrampState()
    if (
      now.paymentAmount !== asked.paymentAmount ||
      now.paymentCurrency !== asked.paymentCurrency ||
      now.purchaseCurrency !== asked.purchaseCurrency
    )
      return
    update({ quote, purchaseAmount: quote.purchaseAmount.amount, quotesLoading: false })
  } catch (error) {
    update({ quotesLoading: false, quote: null, error: swapErrorMessage(error) })
  }
}

let following: { orderId: string; stop: () => void } | undefined

/**
 * Opens the provider's checkout for the quote. Runs synchronously in the click (the popup is
 * opened before any await, then sent to the checkout once its URL is known); the popup gets no
 * handle on this frame. Then follows the order ({@link followOrder}).
 *
 * @example
 * button.onclick = () => startPurchase()
 */
export function startPurchase(): void {
  const popup = openBlankPopup('porthole-onramp')
  if (!popup) {
    update({ error: tt('popupBlocked') })
    return
  }
  popup.opener = null
  void openCheckout(popup)
}

async function openCheckout(popup: Window): Promise<void> {
  const { connection } = store.getState()
  const state = onrampState()
  const address = connection.address
  const network = connection.caipNetworkId
  const provider = state.selectedProvider ?? ''
  try {
    if (!address || !network) throw new Error('Not connected')
    const blockchain = parseCaipNetworkId(network).namespace === 'solana' ? 'solana' : network
    const { url, orderId } = await generateOnrampUrl({
      destinationWallets: [
        { address, blockchains: [blockchain], assets: [state.purchaseCurrency] },
      ],
      defaultNetwork: network,
      partnerUserId: address,
      defaultExperience: 'buy',
      presetFiatAmount: state.paymentAmount.trim(),
      paymentCurrency: state.paymentCurrency,
      paymentMethod: state.paymentMethod,
    })
    if (!orderId) throw new Error('The provider did not name the order')
    // The address comes from the API: only a web page is opened, never a script or data URL
    // (which would run on this frame's origin in the popup it opened).
    if (!isWebPageUrl(url)) throw new Error(tt('checkoutUrlRefused'))
    popup.location.href = url
    update({ checkoutUrl: url, error: null })
    track('ONRAMP_OPENED', { network, provider, currency: state.purchaseCurrency })
    Modal.push({ view: 'OnRampStatus', orderId, provider })
    followOrder(orderId, popup)
  } catch (error) {
    popup.close()
    update({ error: swapErrorMessage(error) })
    Modal.shake()
  }
}

/**
 * Reopens the checkout of the order being followed (after the popup was closed).
 *
 * @example
 * button.onclick = () => reopenCheckout(orderId)
 */
export function reopenCheckout(orderId: string): void {
  const url = onrampState().checkoutUrl
  if (url && !isWebPageUrl(url)) {
    update({ error: tt('checkoutUrlRefused') })
    return
  }
  const popup = url ? openBlankPopup('porthole-onramp') : null
  if (!popup || !url) {
    update({ error: tt('popupBlocked') })
    return
  }
  popup.opener = null
  popup.location.href = url
  update({ error: null })
  followOrder(orderId, popup)
}

/**
 * Reads the order every 2 s until it completes or fails. Complete: a toast names what arrived,
 * the balances refresh and Account opens on Tokens. A popup closed before paying shows 'Popup
 * closed' (the order can be opened again).
 *
 * @example
 * followOrder(orderId, popup)
 */
export function followOrder(orderId: string, popup?: Window): void {
  following?.stop()
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const stop = () => {
    stopped = true
    clearTimeout(timer)
  }
  following = { orderId, stop }
  const visible = () => {
    const screen = store.getState().history.at(-1)
    return screen?.view === 'OnRampStatus' && screen.orderId === orderId
  }
  const tick = async () => {
    if (stopped) return
    if (!visible()) return stop()
    try {
      const order = await getOnrampOrder(orderId)
      if (stopped) return
      if (order.status === 'complete') {
        stop()
        const { purchaseAmount, purchaseCurrency, quote } = onrampState()
        const currency = quote?.purchaseAmount.currency ?? purchaseCurrency
        track('ONRAMP_COMPLETE', {
          network: store.getState().connection.caipNetworkId ?? '',
          provider: onrampState().selectedProvider ?? '',
          currency,
        })
        resetOnramp()
        store.setState({ history: [{ view: 'Account' }], accountTab: 'tokens' })
        Modal.showToast(
          tt('purchaseComplete', { amount: purchaseAmount ?? '', currency }),
          'success',
        )
        void Balance.refresh({ force: true })
        void refreshTokens({ force: true })
        return
      }
      if (order.status === 'failed') {
        stop()
        return update({ error: tt('purchaseFailed') })
      }
      if (order.status === 'processing') update({ error: null })
      else if (popup?.closed) update({ error: tt('popupClosed') })
    } catch (error) {
      update({ error: swapErrorMessage(error) })
    }
    timer = setTimeout(tick, popup && !popup.closed ? ORDER_POLL_MS : POPUP.pollMs * 2)
  }
  timer = setTimeout(tick, ORDER_POLL_MS)
}

// A network switch or disconnect starts the purchase over.
store.subscribe((state, previous) => {
  if (state.onramp && state.connection.caipNetworkId !== previous.connection.caipNetworkId)
    resetOnramp()
})
