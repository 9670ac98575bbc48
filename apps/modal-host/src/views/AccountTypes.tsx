/**
 * The embedded user's two eip155 accounts (spec §4 "Preferred account type"): the smart account
 * and the key that owns it, each with its label and address; the one in use is marked and the
 * other can be chosen. Loaded only for users who have both.
 */
import { useState } from 'react'
import * as Modal from '../actions/modal.js'
import { fill } from '../i18n/en.js'
import { useModal } from '../store/store.js'
import './accountTabs.css'

const TEXT = {
  smartAccount: 'Smart account',
  eoa: 'Owner account (EOA)',
  inUse: 'In use',
  use: 'Use',
  notDeployed: 'Deploys with its first transaction',
  switched: 'Now using the {account}',
} as const

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
      Modal.showToast(fill(TEXT.switched, { account: TEXT[type].toLowerCase() }), 'success')
    } catch (error) {
      Modal.showToast((error as Error).message, 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <ul className="ph-list" aria-label="Accounts" data-testid="account-types">
      {user.accounts.map((account) => {
        const active = account.type === user.preferredAccountType
        return (
          <li
            key={account.type}
            className="ph-row ph-static"
            data-testid={`account-${account.type}`}
          >
            <span className="ph-row-name ph-stack">
              <span>{TEXT[account.type]}</span>
              <span className="ph-muted" title={account.address}>
                {short(account.address)}
                {account.type === 'smartAccount' && !user.smartAccountDeployed
                  ? ` · ${TEXT.notDeployed}`
                  : ''}
              </span>
            </span>
            {active ? (
              <span className="ph-tag" data-tone="success">
                {TEXT.inUse}
              </span>
            ) : (
              <button
                type="button"
                className="ph-link-button"
                disabled={busy}
                aria-label={`${TEXT.use} ${TEXT[account.type]}`}
                onClick={() => void choose(account.type)}
              >
                {TEXT.use}
              </button>
            )}
          </li>
        )
      })}
    </ul>
  )
}
