import { z } from 'zod'
import {
  type OnrampProvider,
  OnrampRefusedError,
  OnrampUnavailableError,
} from './OnrampProvider.js'

/** Options of {@link createHttpOnrampProvider}. */
export type CreateHttpOnrampProviderParameters = {
  /** The provider's base URL (its `/api/*` and `/checkout`). */
  url: string
  /** The partner's secret, sent as `Authorization: Bearer`. */
  apiKey: string
  publicKey: string
  /** Id and name of the provider. */
  provider: { id: string; name: string }
  /** Per call; default 5 s. */
  timeoutMs?: number
}

const Text = z.string().max(256)
const Money = z.object({ amount: z.string().regex(/^\d{1,30}(\.\d{1,30})?$/), currency: Text })
const Options = z.object({
  paymentCurrencies: z
    .array(
      z.object({
        id: Text,
        limits: z.array(
          z.object({
            id: Text,
            min: z.string().regex(/^\d{1,15}(\.\d{1,8})?$/),
            max: z.string().regex(/^\d{1,15}(\.\d{1,8})?$/),
          }),
        ),
      }),
    )
    .max(100),
  purchaseCurrencies: z
    .array(
      z.object({
        id: Text,
        name: Text,
        symbol: Text,
        networks: z.array(
          z.object({
            name: Text,
            display_name: Text,
            chain_id: Text,
            contract_address: Text,
          }),
        ),
      }),
    )
    .max(500),
})
const Quote = z.object({
  networkFee: Money,
  paymentSubtotal: Money,
  paymentTotal: Money,
  purchaseAmount: Money,
  providerFee: Money.optional(),
  quoteId: Text,
})
const Created = z.object({ id: z.string().min(1).max(128), url: z.url({ protocol: /^https?$/ }) })
const Order = z.object({
  id: z.string().max(128),
  status: z.enum(['created', 'processing', 'complete', 'failed']),
  network: Text,
  walletAddress: Text,
  purchaseCurrency: Text,
  purchaseAmount: Money.nullable(),
  paymentTotal: Money.nullable(),
  txHash: z.string().max(256).nullable(),
  failureReason: z.string().max(1024).nullable(),
  reference: z.string().max(128).nullable(),
})
const Refusal = z.object({ message: z.string().max(1024) })

/**
 * A client of a provider speaking the Porthole on-ramp provider protocol (`GET /api/options`,
 * `POST /api/quote`, `POST /api/orders`, `GET /api/orders/:id`; see `apps/onramp`). A 4xx
 * answer with a `message` is an {@link OnrampRefusedError}; no answer, 5xx, or an answer of
 * another shape is an {@link OnrampUnavailableError}.
 *
 * @example
 * const provider = createHttpOnrampProvider({ url: 'http://127.0.0.1:4900', apiKey, publicKey, provider: { id: 'meld', name: 'Local checkout' } })
 * const options = await provider.options()
 */
export function createHttpOnrampProvider(
  parameters: CreateHttpOnrampProviderParameters,
): OnrampProvider {
  const base = parameters.url.replace(/\/+$/, '')
  const timeoutMs = parameters.timeoutMs ?? 5000
  async function call<T>(
    schema: z.ZodType<T>,
    path: string,
    body?: unknown,
    { notFound }: { notFound?: T } = {},
  ): Promise<T> {
    let response: Response
    try {
      response = await fetch(`${base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${parameters.apiKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      })
    } catch (cause) {
      throw new OnrampUnavailableError(`The on-ramp provider cannot be reached`, { cause })
    }
    const json: unknown = await response.json().catch(() => undefined)
    if (response.status === 404 && notFound !== undefined) return notFound
    if (response.status >= 400 && response.status < 500 && response.status !== 401) {
      const refusal = Refusal.safeParse(json)
      if (refusal.success) throw new OnrampRefusedError(refusal.data.message)
    }
    if (!response.ok)
      throw new OnrampUnavailableError(`The on-ramp provider answered ${response.status}`)
    const parsed = schema.safeParse(json)
    if (!parsed.success)
      throw new OnrampUnavailableError('The on-ramp provider answered in an unexpected shape')
    return parsed.data
  }
  return {
    id: parameters.provider.id,
    name: parameters.provider.name,
    publicKey: parameters.publicKey,
    options: () => call(Options, '/api/options'),
    quote: (request) => call(Quote, '/api/quote', request),
    createOrder: (request) => call(Created, '/api/orders', request),
    order: (id) =>
      call(Order.nullable(), `/api/orders/${encodeURIComponent(id)}`, undefined, {
        notFound: null,
      }),
  }
}
