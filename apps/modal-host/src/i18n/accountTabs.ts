/**
 * The Account tabs' strings (Tokens, NFTs, Activity and its relative times): a catalogue of its
 * own, loaded with the tabs so the modal's first download does not carry them.
 */
import { fill } from './en.js'

export const accountTabs = {
  timeJustNow: 'just now',
  timeSeconds: '{n} sec',
  timeMinute: '1 min',
  timeMinutes: '{n} min',
  timeHour: '1 hour',
  timeHours: '{n} hours',
  timeDay: '1 day',
  timeDays: '{n} days',
  timeMonth: '1 month',
  timeMonths: '{n} months',
  timeYear: '1 year',
  timeYears: '{n} years',
  timeAgo: '{time} ago',
  timeIn: 'in {time}',
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
  noTokensHint: 'Buy or receive tokens to see them here.',
  noNfts: 'No NFTs yet',
  noNftsHint: 'NFTs this account holds show here.',
  noActivity: 'No activity yet',
  noActivityHint: 'Transactions on this network show here.',
  loadMore: 'Load more',
  totalBalance: 'Total balance',
  pending: 'Pending',
} as const

/** A key of {@link accountTabs}. */
export type AccountTabsKey = keyof typeof accountTabs

/**
 * Looks up an Account tabs string and fills its `{placeholders}`.
 *
 * @example
 * ta('tabTokens') // 'Tokens'
 */
export function ta(key: AccountTabsKey, values: Record<string, string | number> = {}): string {
  return fill(accountTabs[key], values)
}
