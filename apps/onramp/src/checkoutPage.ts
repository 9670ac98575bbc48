/**
 * The checkout page: plain server-rendered HTML, no script. One inline stylesheet, allowed by
 * its hash in the page's Content-Security-Policy.
 */
import { createHash } from 'node:crypto'
import { formatUnits } from 'viem'
import { formatCents, NETWORKS, PROVIDER_FEE_PERMILLE, PURCHASE_CURRENCIES } from './offering.js'
import type { Order } from './orders.js'

/** The page's texts the buyer (and browser tests) act on. */
export const CHECKOUT_TEXT = {
  cardLabel: 'Card number',
  amountLabel: 'Amount ({currency})',
  pay: 'Pay',
  complete: 'Payment complete — you can close this window',
  processing: 'Payment processing…',
  declined: 'Your card was declined. Try another card.',
  unknownCard: 'Card number not accepted: use the test card 4242 4242 4242 4242',
  failed: 'Payment failed: {reason} You were not charged.',
  notFound: 'Order not found. Start again from your wallet.',
  mismatch: 'This checkout link does not match its order.',
} as const

/** The test card that pays. */
export const TEST_CARD_OK = '4242424242424242'
/** The test card that is declined. */
export const TEST_CARD_DECLINED = '4000000000000002'

const STYLE = `
:root { color-scheme: light dark; font: 15px/1.45 system-ui, sans-serif; }
body { margin: 0; display: grid; place-items: start center; min-height: 100vh; background: Canvas; }
main { width: min(420px, 100% - 32px); margin: 32px 16px; }
h1 { font-size: 1.3rem; margin: 0 0 4px; }
.test { margin: 0 0 16px; font-size: .85rem; opacity: .75; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 6px 16px; margin: 0 0 20px; }
dt { opacity: .75; }
dd { margin: 0; text-align: right; overflow-wrap: anywhere; }
code { font-size: .8rem; }
form { display: grid; gap: 8px; }
label { font-weight: 600; }
input { font: inherit; padding: 10px; border: 1px solid GrayText; border-radius: 8px; }
.hint { margin: 0; font-size: .8rem; opacity: .75; }
button { font: inherit; font-weight: 600; padding: 12px; border: 0; border-radius: 8px; background: #3b5bdb; color: #fff; cursor: pointer; }
[role='alert'] { color: #c92a2a; font-weight: 600; }
[role='status'] { font-weight: 600; }
`

/** The Content-Security-Policy of every checkout page: no script, this stylesheet only. */
export const CHECKOUT_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** What a page shows besides the order. */
export type CheckoutPageParameters = {
  /** The order, or null when it was not found (or the link does not match it). */
  order: Order | null
  /** A message for the buyer: an error (`alert`) or progress (`status`). */
  message?: { kind: 'alert' | 'status'; text: string } | undefined
  /** The card number typed (kept after a refused payment). */
  cardNumber?: string | undefined
  amount?: string | undefined
}

/**
 * Renders the checkout page of an order: its summary (amount, fees, token, network,
 * destination), then by status the payment form (test card field and Pay), a progress line
 * (refreshing every second), the completion line, or the failure.
 *
 * @example
 * const html = checkoutPage({ order })
 */
export function checkoutPage({
  order,
  message,
  cardNumber,
  amount,
}: CheckoutPageParameters): string {
  if (!order)
    return page(
      'Checkout',
      `<h1>Checkout</h1><p role="alert">${escapeHtml(message?.text ?? CHECKOUT_TEXT.notFound)}</p>`,
    )
  const token = PURCHASE_CURRENCIES[order.purchaseCurrency]
  const fiat = (cents: bigint) => escapeHtml(`${formatCents(cents)} ${order.paymentCurrency}`)
  // [term, value as HTML]
  const rows: [string, string][] = order.quote
    ? [
        ['You pay', fiat(order.quote.paymentTotal)],
        [`Fee (${Number(PROVIDER_FEE_PERMILLE) / 10}%)`, fiat(order.quote.providerFee)],
        ['Network fee', fiat(order.quote.networkFee)],
        [
          'You get',
          escapeHtml(`${formatUnits(order.quote.purchase, token.decimals)} ${token.symbol}`),
        ],
      ]
    : [['You get', escapeHtml(`${token.symbol}: choose the amount below`)]]
  rows.push(
    ['Network', escapeHtml(NETWORKS[order.network].display_name)],
    ['To', `<code>${escapeHtml(order.walletAddress)}</code>`],
  )
  if (order.txHash) rows.push(['Transaction', `<code>${escapeHtml(order.txHash)}</code>`])
  const summary = `<dl>${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`).join('')}</dl>`

  let body: string
  let refresh = false
  if (order.status === 'complete') body = `<p role="status">${CHECKOUT_TEXT.complete}</p>`
  else if (order.status === 'processing') {
    refresh = true
    body = `<p role="status">${CHECKOUT_TEXT.processing}</p>`
  } else if (order.status === 'failed')
    body = `<p role="alert">${escapeHtml(
      CHECKOUT_TEXT.failed.replace('{reason}', withStop(order.failureReason ?? 'unknown error')),
    )}</p>`
  else {
    const amountField = order.quote
      ? ''
      : `<label for="amount">${escapeHtml(CHECKOUT_TEXT.amountLabel.replace('{currency}', order.paymentCurrency))}</label>
<input id="amount" name="amount" inputmode="decimal" autocomplete="off" required value="${escapeHtml(amount ?? '')}">`
    body = `${message ? `<p role="${message.kind}">${escapeHtml(message.text)}</p>` : ''}
<form method="post" action="/checkout/pay">
<input type="hidden" name="orderId" value="${escapeHtml(order.id)}">
${amountField}
<label for="card-number">${CHECKOUT_TEXT.cardLabel}</label>
<input id="card-number" name="cardNumber" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required value="${escapeHtml(cardNumber ?? '')}">
<p class="hint">Test cards: 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.</p>
<button type="submit">${CHECKOUT_TEXT.pay}</button>
</form>`
  }
  return page(
    `Buy ${token.symbol}`,
    `<h1>Buy ${escapeHtml(token.symbol)}</h1>
<p class="test">Porthole test checkout: no real money moves.</p>
${summary}
${body}`,
    refresh,
  )
}

function page(title: string, content: string, refresh = false): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${refresh ? '<meta http-equiv="refresh" content="1">\n' : ''}<title>${escapeHtml(title)} · Porthole test checkout</title>
<style>${STYLE}</style>
</head>
<body><main>
${content}
</main></body>
</html>
`
}

const withStop = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`)

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  )
}
