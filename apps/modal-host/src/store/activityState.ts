/**
 * The transaction list state (spec §3), apart from the Activity rules so the modal's first
 * download does not carry them.
 */
import type { Transaction } from '@porthole/shared'

/** Transactions by year, then month (0 = January), as spec §3 `transactionsByYear`. */
export type TransactionsByYear = Readonly<Record<number, Readonly<Record<number, Transaction[]>>>>

/** The transaction list state of spec §3. */
export type TransactionListState = {
  /** What the Activity tab shows: every fetched page, filtered (spam, active chain). */
  transactions: Transaction[]
  transactionsByYear: TransactionsByYear
  /** The network the list belongs to; a page for another network starts a new list. */
  lastNetworkInView: string | null
  loading: boolean
  empty: boolean
  /** The cursor of the next page; `null` when there is none. */
  next: string | null
}

/**
 * The transaction list before any fetch (also the value a reset restores).
 *
 * @example
 * store.setState({ transactions: initialTransactionListState })
 */
export const initialTransactionListState: TransactionListState = {
  transactions: [],
  transactionsByYear: {},
  lastNetworkInView: null,
  loading: false,
  empty: false,
  next: null,
}
