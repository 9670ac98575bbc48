/**
 * A buyer for tests: submits a checkout page's form as a browser would (same-origin POST, then
 * the redirect back to the page).
 */
import { TEST_CARD_OK } from './checkoutPage.js'

/** Options of {@link payCheckout}. */
export type PayCheckoutParameters = {
  /** The checkout link (`…/checkout?orderId=…&…`). */
  url: string
  /** Default the test card that pays, 4242 4242 4242 4242. */
  cardNumber?: string
  /** The amount, for an order created without one. */
  amount?: string
}

/** The page the buyer ends on. */
export type PayCheckoutReturnType = {
  /** The status of the answer to the form (303 when the payment went through or was under way). */
  status: number
  /** The page shown after it. */
  html: string
}

/**
 * Pays a checkout with a test card, as the page's Pay button does.
 *
 * @example
 * const { html } = await payCheckout({ url })
 * html.includes('Payment complete') // true
 */
export async function payCheckout(
  parameters: PayCheckoutParameters,
): Promise<PayCheckoutReturnType> {
  const url = new URL(parameters.url)
  const orderId = url.searchParams.get('orderId') ?? ''
  const form = new URLSearchParams({ orderId, cardNumber: parameters.cardNumber ?? TEST_CARD_OK })
  if (parameters.amount !== undefined) form.set('amount', parameters.amount)
  const response = await fetch(new URL('/checkout/pay', url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url.origin },
    body: form,
    redirect: 'manual',
  })
  if (response.status !== 303) return { status: response.status, html: await response.text() }
  const next = await fetch(new URL(response.headers.get('location') ?? '', url))
  return { status: 303, html: await next.text() }
}
