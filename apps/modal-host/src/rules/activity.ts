/**
 * The Activity tab's rules (spec §2 grouping, §3 transaction list state, §4 Transactions, §5
 * spam and chain filters, §9 display): pure functions over the blockchain data service's
 * `Transaction`s; the view and the store action call them.
 *
 * Signs (spec §9): '+' for receive, deposit, borrow, claim; '-' for withdraw, repay, burn. The
 * spec names neither send nor mint: a send shows '-' (the amount leaves the account) and a mint
 * '+' (a new token arrives), which is what a user reads in any wallet and what AppKit shows.
 * Other types (trade, approve, execute, …) take the sign of the transfer's direction: 'in' '+',
 * 'out' '-', 'self' none. A transaction with several transfers (a trade: one out, one in)
 * signs each transfer by its own direction.
 */
import type { HistoryResponse, Transaction, TransactionTransfer } from '@porthole/shared'
import { truncateAddress } from '@porthole/shared'
import { type AccountTabsKey, ta } from '../i18n/accountTabs.js'
import {
  initialTransactionListState,
  type TransactionListState,
  type TransactionsByYear,
} from '../store/activityState.js'
import { formatDecimal, parseDecimal } from './decimals.js'

export { initialTransactionListState, type TransactionListState, type TransactionsByYear }

/**
 * True for a spam transaction (spec §5): every transfer is an NFT flagged as spam. A
 * transaction with no transfers (an approval, a contract call) is not spam.
 *
 * @example
 * isSpamTransaction({ ...tx, transfers: [{ nft_info: { flags: { is_spam: true }, … }, … }] }) // true
 */
export function isSpamTransaction(transaction: Transaction): boolean {
  const { transfers } = transaction
  return transfers.length > 0 && transfers.every((transfer) => transfer.nft_info?.flags.is_spam)
}

/** Parameters of {@link visibleTransactions}. */
export type VisibleTransactionsParameters = {
  transactions: readonly Transaction[]
  /** The active network (CAIP-2); only its transactions are shown. */
  caipNetworkId: string
}

/**
 * The transactions the Activity tab shows (spec §5): spam hidden, only the active chain.
 *
 * @example
 * visibleTransactions({ transactions: response.data, caipNetworkId: 'eip155:31337' })
 */
export function visibleTransactions(parameters: VisibleTransactionsParameters): Transaction[] {
  const { transactions, caipNetworkId } = parameters
  return transactions.filter(
    (transaction) =>
      transaction.metadata.chain === caipNetworkId && !isSpamTransaction(transaction),
  )
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>()

/** Year and month (0-based) of a moment in a time zone (the browser's when undefined). */
function yearMonth(time: number, timeZone: string | undefined): { year: number; month: number } {
  const key = timeZone ?? ''
  let format = partsFormatters.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'numeric',
      ...(timeZone ? { timeZone } : {}),
    })
    partsFormatters.set(key, format)
  }
  let year = 0
  let month = 0
  for (const part of format.formatToParts(time)) {
    if (part.type === 'year') year = Number(part.value)
    if (part.type === 'month') month = Number(part.value) - 1
  }
  return { year, month }
}

/** Parameters of {@link groupByYearAndMonth}. */
export type GroupByYearAndMonthParameters = {
  /** New transactions to file. */
  transactions: readonly Transaction[]
  /** Groups built so far (from earlier pages); not modified. */
  into?: TransactionsByYear | undefined
  /**
   * When a transaction has no parseable `minedAt` (a pending one), it is filed under this
   * moment's month; defaults to the current time.
   */
  now?: Date | number | undefined
  /** IANA time zone for the month boundaries; the browser's when omitted. */
  timeZone?: string | undefined
}

/**
 * Files transactions by year and month of `minedAt` (spec §2), adding to earlier groups
 * without modifying them. Transactions whose `minedAt` does not parse (pending) go under the
 * current month.
 *
 * @example
 * const byYear = groupByYearAndMonth({ transactions: page.data })
 * byYear[2024]?.[2] // the March 2024 transactions
 */
export function groupByYearAndMonth(parameters: GroupByYearAndMonthParameters): TransactionsByYear {
  const { transactions, into = {}, timeZone } = parameters
  const now = parameters.now === undefined ? Date.now() : Number(parameters.now)
  const out: Record<number, Record<number, Transaction[]>> = {}
  for (const [year, months] of Object.entries(into)) out[Number(year)] = { ...months }
  for (const transaction of transactions) {
    const mined = Date.parse(transaction.metadata.minedAt)
    const { year, month } = yearMonth(Number.isFinite(mined) ? mined : now, timeZone)
    const months = out[year] ?? {}
    out[year] = months
    months[month] = [...(months[month] ?? []), transaction]
  }
  return out
}

/** One titled group of the Activity list. */
export type TransactionGroup = {
  year: number
  /** 0 = January. */
  month: number
  /** 'March', or 'March 2023' when not the current year (in the locale's words and order). */
  title: string
  /** Newest first. */
  transactions: Transaction[]
}

/** Parameters of {@link transactionGroups}. */
export type TransactionGroupsParameters = {
  transactionsByYear: TransactionsByYear
  /** The current time: the year is added to titles of other years. */
  now: Date | number
  timeZone?: string | undefined
  /** Locale of month names ('März 2023', '2023年3月'); 'en' by default. */
  locale?: string | undefined
}

const monthFormatters = new Map<string, Intl.DateTimeFormat>()

/** The month's name in `locale` ('March'), with the year when one is given ('March 2023'). */
function monthName(month: number, year: number | undefined, locale: string): string {
  const key = `${locale}:${year === undefined}`
  let format = monthFormatters.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      month: 'long',
      ...(year === undefined ? {} : { year: 'numeric' }),
      timeZone: 'UTC',
    })
    monthFormatters.set(key, format)
  }
  return format.format(Date.UTC(year ?? 2000, month, 15))
}

/**
 * The Activity list's groups, newest first (spec §2): titled by month name, with the year
 * added when it is not the current year; within a group, newest first.
 *
 * @example
 * transactionGroups({ transactionsByYear, now: Date.now() })
 * // [{ year: 2025, month: 0, title: 'January', … }, { year: 2024, month: 11, title: 'December 2024', … }]
 */
export function transactionGroups(parameters: TransactionGroupsParameters): TransactionGroup[] {
  const { transactionsByYear, timeZone, locale = 'en' } = parameters
  const current = yearMonth(Number(parameters.now), timeZone).year
  const groups: TransactionGroup[] = []
  for (const [yearKey, months] of Object.entries(transactionsByYear))
    for (const [monthKey, transactions] of Object.entries(months)) {
      if (!transactions.length) continue
      const year = Number(yearKey)
      const month = Number(monthKey)
      groups.push({
        year,
        month,
        title: monthName(month, year === current ? undefined : year, locale),
        transactions: [...transactions].sort(
          (a, b) => minedAtOrder(b.metadata.minedAt) - minedAtOrder(a.metadata.minedAt),
        ),
      })
    }
  return groups.sort((a, b) => b.year - a.year || b.month - a.month)
}

/** Sort key: unparseable (pending) times count as the newest. */
function minedAtOrder(minedAt: string): number {
  const time = Date.parse(minedAt)
  return Number.isFinite(time) ? time : Number.POSITIVE_INFINITY
}

/** A displayed sign: '+', '-' or none. */
export type Sign = '+' | '-' | ''

/** Exactly the spec's lists (§9 Display); a send or a mint is signed by its transfer's direction. */
const PLUS_TYPES: readonly string[] = ['receive', 'deposit', 'borrow', 'claim']
const MINUS_TYPES: readonly string[] = ['withdraw', 'repay', 'burn']

/**
 * The sign an operation type shows (spec §9); '' for the others, whose transfers are signed by
 * direction.
 *
 * @example
 * operationSign('receive') // '+'
 * operationSign('approve') // ''
 */
export function operationSign(operationType: string): Sign {
  if (PLUS_TYPES.includes(operationType)) return '+'
  if (MINUS_TYPES.includes(operationType)) return '-'
  return ''
}

/** The sign of a transfer's direction. */
function directionSign(direction: TransactionTransfer['direction']): Sign {
  return direction === 'in' ? '+' : direction === 'out' ? '-' : ''
}

/**
 * A transfer's quantity at the fixed 3 decimals (spec §9), rounded toward zero, thousands
 * grouped: '1.5' → '1.500'.
 *
 * @example
 * formatTransferQuantity('1.5') // '1.500'
 */
export function formatTransferQuantity(numeric: string): string {
  return formatDecimal({ value: numeric, digits: 3 })
}

/** Parameters of {@link transferDescription}. */
export type TransferDescriptionParameters = {
  transfer: TransactionTransfer
  sign: Sign
}

/**
 * One transfer as text: a fungible as '+1.500 ETH'; an NFT by its name ('+Porthole Cat #3'),
 * with a count when it is not one ('+2 Porthole Cat #3').
 *
 * @example
 * transferDescription({ transfer, sign: '-' }) // '-25.000 pUSD'
 */
export function transferDescription(parameters: TransferDescriptionParameters): string {
  const { transfer, sign } = parameters
  const { numeric } = transfer.quantity
  if (transfer.nft_info && !transfer.fungible_info) {
    const count = parseDecimal({ value: numeric, decimals: 0 })
    const prefix = count === undefined || count === 1n ? '' : `${count} `
    return `${sign}${prefix}${transfer.nft_info.name}`
  }
  const symbol = transfer.fungible_info?.symbol ?? transfer.nft_info?.name ?? ''
  return `${sign}${formatTransferQuantity(numeric)}${symbol ? ` ${symbol}` : ''}`
}

/**
 * The description lines of a transaction row: one per transfer ('+1.500 ETH'; a trade gives
 * '-10.000 pUSD' and '+0.003 ETH'), or, for a transaction without transfers (an approval, a
 * deployment), its sender and receiver truncated to the first 4 and last 6 characters
 * (spec §9).
 *
 * @example
 * transactionDescriptions(tx) // ['0xf3…b92266', '0x70…6479c8']
 */
export function transactionDescriptions(transaction: Transaction): string[] {
  const { transfers, metadata } = transaction
  if (!transfers.length)
    return [truncateAddress(metadata.sentFrom, 4, 6), truncateAddress(metadata.sentTo, 4, 6)]
  const byType = operationSign(metadata.operationType)
  return transfers.map((transfer) =>
    transferDescription({
      transfer,
      sign: transfers.length === 1 && byType ? byType : directionSign(transfer.direction),
    }),
  )
}

const TITLES: Readonly<Record<string, AccountTabsKey>> = {
  send: 'activitySent',
  receive: 'activityReceived',
  mint: 'activityMinted',
  burn: 'activityBurned',
  trade: 'activitySwapped',
  approve: 'activityApproved',
  deploy: 'activityDeployed',
  execute: 'activityExecuted',
  deposit: 'activityDeposited',
  withdraw: 'activityWithdrew',
  borrow: 'activityBorrowed',
  repay: 'activityRepaid',
  claim: 'activityClaimed',
  stake: 'activityStaked',
  unstake: 'activityUnstaked',
  cancel: 'activityCancelled',
}

/**
 * A row's title in the past tense ('Sent', 'Received', 'Minted'…); an unknown type is shown
 * capitalised.
 *
 * @example
 * operationTitle('receive') // 'Received'
 */
export function operationTitle(operationType: string): string {
  const key = TITLES[operationType]
  if (key) return ta(key)
  return operationType ? `${operationType[0]?.toUpperCase()}${operationType.slice(1)}` : ''
}

/**
 * A fetch starts: loading on, the list unchanged.
 *
 * @example
 * setState((s) => ({ transactions: transactionsFetchStarted(s.transactions) }))
 */
export function transactionsFetchStarted(state: TransactionListState): TransactionListState {
  return { ...state, loading: true }
}

/** Parameters of {@link transactionsFetched}. */
export type TransactionsFetchedParameters = {
  response: HistoryResponse
  /** The active network the page was asked for. */
  caipNetworkId: string
  now?: Date | number | undefined
  timeZone?: string | undefined
}

/**
 * A page arrived (spec §4): its visible transactions are appended (ones already listed are not
 * repeated), `empty` is set when the list has no entries, `next` keeps the page's cursor. A
 * page for another network than `lastNetworkInView` replaces the list. A page that is all spam
 * leaves the list as it was but moves the cursor on: the view may load the next one.
 *
 * @example
 * setState((s) => ({ transactions: transactionsFetched(s.transactions, { response, caipNetworkId }) }))
 */
export function transactionsFetched(
  state: TransactionListState,
  parameters: TransactionsFetchedParameters,
): TransactionListState {
  const { response, caipNetworkId, now, timeZone } = parameters
  const base = state.lastNetworkInView === caipNetworkId ? state : initialTransactionListState
  const known = new Set(base.transactions.map((transaction) => transaction.id))
  const added = visibleTransactions({ transactions: response.data, caipNetworkId }).filter(
    (transaction) => !known.has(transaction.id) && known.add(transaction.id),
  )
  const transactions = [...base.transactions, ...added]
  return {
    transactions,
    transactionsByYear: groupByYearAndMonth({
      transactions: added,
      into: base.transactionsByYear,
      now,
      timeZone,
    }),
    lastNetworkInView: caipNetworkId,
    loading: false,
    empty: transactions.length === 0,
    next: response.next,
  }
}

/**
 * A fetch failed (spec §4, issue 5): the list is emptied, `empty` set, the cursor cleared; the
 * caller shows the 'Failed to fetch transactions' toast (`ta('failedToFetchTransactions')`).
 *
 * @example
 * setState((s) => ({ transactions: transactionsFetchFailed(s.transactions) }))
 */
export function transactionsFetchFailed(state: TransactionListState): TransactionListState {
  return {
    ...state,
    transactions: [],
    transactionsByYear: {},
    loading: false,
    empty: true,
    next: null,
  }
}
