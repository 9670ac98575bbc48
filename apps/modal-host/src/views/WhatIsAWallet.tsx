import * as Modal from '../actions/modal.js'
import { Icon } from '../components/Icon.js'
import { t } from '../i18n/en.js'

/** A short explainer with a way to get a wallet. */
export function WhatIsAWallet() {
  const item = (icon: 'wallet' | 'network', title: string, body: string) => (
    <li className="ph-row" style={{ cursor: 'default', alignItems: 'flex-start' }}>
      <Icon name={icon} size={28} />
      <span>
        <strong>{title}</strong>
        <p className="ph-muted">{body}</p>
      </span>
    </li>
  )
  return (
    <>
      <ul className="ph-list">
        {item('wallet', t('whatIsAWalletBody1Title'), t('whatIsAWalletBody1'))}
        {item('network', t('whatIsAWalletBody2Title'), t('whatIsAWalletBody2'))}
      </ul>
      <div className="ph-center">
        <button
          type="button"
          className="ph-button"
          onClick={() => Modal.push({ view: 'AllWallets' })}
        >
          {t('getAWallet')}
        </button>
      </div>
    </>
  )
}
