/**
 * The Account tabs' strings (Tokens, NFTs, Activity): a catalogue of its own, loaded with the tabs
 * so the modal's first download does not carry them. Relative times other than 'just now' come
 * from `Intl.RelativeTimeFormat` in the chosen locale.
 */
import { catalogue } from './en.js'

export const accountTabs = {
  timeJustNow: 'just now',
  activitySent: 'Sent',
  activityReceived: 'Received',
  activityMinted: 'Minted',
  activityBurned: 'Burned',
  activitySwapped: 'Swapped',
  activityApproved: 'Approved',
  activityDeployed: 'Deployed',
  activityExecuted: 'Executed',
  activityDeposited: 'Deposited',
  activityWithdrew: 'Withdrew',
  activityBorrowed: 'Borrowed',
  activityRepaid: 'Repaid',
  activityClaimed: 'Claimed',
  activityStaked: 'Staked',
  activityUnstaked: 'Unstaked',
  activityCancelled: 'Cancelled',
  tabTokens: 'Tokens',
  tabNfts: 'NFTs',
  tabActivity: 'Activity',
  accountTabs: 'Account',
  noTokens: 'No tokens yet',
  noTokensHint: 'Buy or receive tokens to see them here.',
  noNfts: 'No NFTs yet',
  noNftsHint: 'NFTs this account holds show here.',
  noActivity: 'No activity yet',
  noActivityHint: 'Transactions on this network show here.',
  loadMore: 'Load more',
  totalBalance: 'Total balance',
  pending: 'Pending',
  failed: 'Failed',
  failedToFetchTransactions: 'Failed to fetch transactions',
} as const

/** A key of {@link accountTabs}. */
export type AccountTabsKey = keyof typeof accountTabs

/**
 * Looks up an Account tabs string and fills its `{placeholders}`.
 *
 * @example
 * ta('tabTokens') // 'Tokens'
 */
export const ta = catalogue('accountTabs', accountTabs)
