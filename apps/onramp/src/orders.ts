/**
 * The provider's orders, in memory (a restart forgets them): one per checkout, found by an
 * unguessable id, paid at most once.
 */
import { randomBytes } from 'node:crypto'
import type { Address, Hex } from 'viem'
import type {
  NetworkId,
  PaymentCurrencyId,
  PaymentMethod,
  PricedQuote,
  PurchaseCurrencyId,
} from './offering.js'

/** Where an order stands: `created` until paid, `processing` while the tokens are sent. */
export type OrderStatus = 'created' | 'processing' | 'complete' | 'failed'

/** One order. */
export type Order = {
  id: string
  status: OrderStatus
  network: NetworkId
  purchaseCurrency: PurchaseCurrencyId
  paymentCurrency: PaymentCurrencyId
  paymentMethod: PaymentMethod
  /** Where the tokens go. */
  walletAddress: Address
  /** The partner's id of the buyer (the checkout link's `externalCustomerId`). */
  partnerUserId: string
  /** The partner's own reference (the Porthole API puts the project id here). */
  reference: string | null
  /** The priced purchase; null until the buyer picks an amount at checkout. */
  quote: PricedQuote | null
  txHash: Hex | null
  failureReason: string | null
  createdAt: number
  updatedAt: number
}

/** What {@link createOrders}' `create` takes. */
export type NewOrder = Omit<
  Order,
  'id' | 'status' | 'txHash' | 'failureReason' | 'createdAt' | 'updatedAt'
>

/** Options of {@link createOrders}. */
export type CreateOrdersParameters = {
  /** How long an order is kept, in ms (an order being paid is kept until it settles). */
  ttlMs: number
  /** The most orders kept; the oldest settled or unpaid go first. */
  max: number
  now: () => number
}

/**
 * An in-memory order store.
 *
 * @example
 * const orders = createOrders({ ttlMs: 86_400_000, max: 10_000, now: Date.now })
 * const order = orders.create({ network: 'eip155:31337', … })
 * orders.get(order.id)?.status // 'created'
 */
export function createOrders({ ttlMs, max, now }: CreateOrdersParameters) {
  // Insertion order is creation order: the first entries are the oldest.
  const byId = new Map<string, Order>()
  const sweep = () => {
    for (const [id, order] of byId) {
      if (byId.size < max && order.createdAt + ttlMs > now()) break
      if (order.status !== 'processing') byId.delete(id)
    }
  }
  return {
    /** Opens an order. */
    create(input: NewOrder): Order {
      sweep()
      const order: Order = {
        ...input,
        id: `ord_${randomBytes(18).toString('base64url')}`,
        status: 'created',
        txHash: null,
        failureReason: null,
        createdAt: now(),
        updatedAt: now(),
      }
      byId.set(order.id, order)
      return order
    },
    /** An order by id. */
    get(id: string): Order | undefined {
      const order = byId.get(id)
      if (order && order.status !== 'processing' && order.createdAt + ttlMs <= now()) {
        byId.delete(id)
        return undefined
      }
      return order
    },
    /**
     * Claims an unpaid order for payment (synchronously, so two payments of one order cannot
     * both start): false unless it was `created`.
     */
    claim(order: Order, quote: PricedQuote): boolean {
      if (order.status !== 'created') return false
      order.status = 'processing'
      order.quote = quote
      order.updatedAt = now()
      return true
    },
    /** Records the outcome of a payment. */
    settle(order: Order, outcome: { txHash: Hex } | { failureReason: string }): void {
      if ('txHash' in outcome) {
        order.status = 'complete'
        order.txHash = outcome.txHash
      } else {
        order.status = 'failed'
        order.failureReason = outcome.failureReason
      }
      order.updatedAt = now()
    },
    /** Notes the payout transaction as soon as it is sent. */
    sent(order: Order, txHash: Hex): void {
      order.txHash = txHash
      order.updatedAt = now()
    },
    /** How many orders are kept. */
    size: () => byId.size,
  }
}

/** The store's type. */
export type Orders = ReturnType<typeof createOrders>
