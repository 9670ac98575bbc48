import { truncateAddress } from '@porthole/shared'
import { useState } from 'react'
import * as Modal from '../actions/modal.js'
import * as Siwx from '../actions/siwx.js'
import { Avatar } from '../components/Images.js'
import { t } from '../i18n/en.js'
import { useModal } from '../store/store.js'

/**
 * SIWXSignMessage (spec §2, §4 "Wallet sign-in"): the dapp asks the account to sign in; Sign
 * asks the wallet for the signature (the modal then closes), Cancel follows the spec's cancel
 * rule. A failure shows its message and the view stays for another try.
 */
export function SIWXSignMessage() {
  const dapp = useModal((s) => s.config.metadata.name) || t('thisApp')
  const address = useModal((s) => s.connection.address) ?? ''
  const statement = useModal((s) => s.config.siwx?.statement)
  const required = useModal((s) => s.config.siwx?.required ?? false)
  const [busy, setBusy] = useState<'sign' | 'cancel' | null>(null)
  const [error, setError] = useState<string | null>(null)
  const run = async (which: 'sign' | 'cancel', action: () => Promise<void>) => {
    setBusy(which)
    setError(null)
    try {
      await action()
    } catch (e) {
      const code = (e as { code?: number }).code
      setError(code === 4001 ? t('signatureDeclined') : ((e as Error).message ?? t('signInFailed')))
      Modal.shake()
    } finally {
      setBusy(null)
    }
  }
  return (
    <div className="ph-center" aria-live="polite">
      <Avatar address={address} />
      <h3>{t('signInTitle', { name: dapp })}</h3>
      <p className="ph-muted">{statement || t('signInHint', { name: dapp })}</p>
      <span className="ph-muted" data-testid="siwx-address">
        {truncateAddress(address)}
      </span>
      {error ? (
        <p className="ph-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="ph-actions">
        <button
          type="button"
          className="ph-button"
          data-variant="secondary"
          disabled={busy !== null}
          onClick={() => void run('cancel', Siwx.cancel)}
        >
          {required ? t('disconnect') : t('cancel')}
        </button>
        <button
          type="button"
          className="ph-button"
          disabled={busy !== null}
          onClick={() => void run('sign', Siwx.signIn)}
        >
          {busy === 'sign' ? t('approveInWallet') : t('signIn')}
        </button>
      </div>
    </div>
  )
}
