import type { Screen } from '../store/types.js'

/**
 * What Back does (spec §2): pop the history; at the first view close the modal, except that
 * from Connect while connected it shows Account.
 *
 * @example
 * backTarget([{ view: 'Connect' }], true) // { history: [{ view: 'Account' }] }
 */
export function backTarget(history: Screen[], connected: boolean): { history: Screen[] } | 'close' {
  if (history.length > 1) return { history: history.slice(0, -1) }
  if (history[0]?.view === 'Connect' && connected) return { history: [{ view: 'Account' }] }
  return 'close'
}
