/**
 * The embedded user's two eip155 accounts (spec §4 "Preferred account type"): the smart account
 * and the key that owns it, each with its label and address; the one in use is marked and the
 * other can be chosen. Loaded only for users who have both.
 */
import { useState } from 'react'
import * as Modal from '../actions/modal.js'
import { tk } from '../i18n/accountTypes.js'
import { useModal } from '../store/store.js'
import './accountTabs.css'

/**
 * The smart account and owner rows, with the switch between them. `choose` switches (the
 * Account view passes `setPreferredAccountType` and its address format, so that this chunk
 * shares no module with the first download: the bundler would split those out of it).
 */
export function AccountTypes({
  choose: switchTo,
  short,
}: {
  choose: (type: 'eoa' | 'smartAccount') => Promise<void>
  /** How addresses are shortened (the Account view's own). */
  short: (address: string) => string
}) {
  const user = useModal((s) => s.authUser)
  const [busy, setBusy] = useState(false)
  if (!user || user.accounts.length < 2) return null
  const choose = async (type: 'eoa' | 'smartAccount') => {
    setBusy(true)
    try {
      await switchTo(type)
      Modal.showToast(tk(type === 'eoa' ? 'switchedToEoa' : 'switchedToSmartAccount'), 'success')
    } catch (error) {
      Modal.showToast((error as Error).message, 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <ul className="ph-list" aria-label={tk('accounts')} data-testid="account-types">
      {user.accounts.map((account) => {
        const active = account.type === user.preferredAccountType
        return (
          <li
            key={account.type}
            className="ph-row ph-static"
            data-testid={`account-${account.type}`}
          >
            <span className="ph-row-name ph-stack">
              <span>{tk(account.type)}</span>
              <span className="ph-muted" title={account.address}>
                {short(account.address)}
                {account.type === 'smartAccount' && !user.smartAccountDeployed
                  ? ` · ${tk('notDeployed')}`
                  : ''}
              </span>
            </span>
            {active ? (
              <span className="ph-tag" data-tone="success">
                {tk('inUse')}
              </span>
            ) : (
              <button
                type="button"
                className="ph-link-button"
                disabled={busy}
                aria-label={tk('useAccount', { account: tk(account.type) })}
                onClick={() => void choose(account.type)}
              >
                {tk('use')}
              </button>
            )}
          </li>
        )
      })}
    </ul>
  )
}
