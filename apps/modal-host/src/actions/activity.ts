/**
 * The Activity tab (spec §4 Transactions): pages of history from the data service for the
 * active network, appended by cursor; a failed fetch empties the list, clears the cursor and
 * shows 'Failed to fetch transactions' (spec §8).
 */
import { BaseError } from '@porthole/protocol'
import { getHistory } from '../api/blockchain.js'
import { ta } from '../i18n/accountTabs.js'
import {
  initialTransactionListState,
  transactionsFetched,
  transactionsFetchFailed,
  transactionsFetchStarted,
} from '../rules/activity.js'
import { cacheKey } from '../rules/caches.js'
import { store } from '../store/store.js'
import { reportError } from './analytics.js'
import * as Modal from './modal.js'

/**
 * Loads the first page (a fresh list when the account or network changed, or with
 * `refresh`), or with `more` the page after the cursor.
 *
 * @example
 * await loadTransactions({ more: true })
 */
export async function loadTransactions(
  options: { more?: boolean; refresh?: boolean } = {},
): Promise<void> {
  const { connection, activity } = store.getState()
  const address = connection.address
  const caipNetworkId = connection.caipNetworkId
  // Spec §8's error (the tab is drawn only for a connected account: a late call after a
  // disconnect), reported once at the app's edge by the caller's unhandled rejection.
  if (connection.status !== 'connected' || !address)
    throw new BaseError("Transactions can't be fetched without an accountAddress")
  if (!caipNetworkId) return
  if (!caipNetworkId.startsWith('eip155:')) return // spec §6: Activity is EVM only
  const account = cacheKey({ caipNetworkId, address })
  const same = activity.account === account && activity.lastNetworkInView === caipNetworkId
  if (activity.loading) return
  if (options.more && (!same || !activity.next)) return
  if (!options.more && !options.refresh && same) return
  const base = options.more ? activity : { ...initialTransactionListState, account }
  store.setState({ activity: { ...transactionsFetchStarted(base), account } })
  try {
    const response = await getHistory(address, {
      chainId: caipNetworkId,
      cursor: options.more ? activity.next : undefined,
    })
    if (store.getState().activity.account !== account) return
    store.setState((s) => ({
      activity: { ...transactionsFetched(s.activity, { response, caipNetworkId }), account },
    }))
  } catch (error) {
    if (store.getState().activity.account !== account) return
    store.setState((s) => ({ activity: { ...transactionsFetchFailed(s.activity), account } }))
    Modal.showToast(ta('failedToFetchTransactions'), 'error')
    reportError(error, { category: 'API_ERROR' })
  }
}
