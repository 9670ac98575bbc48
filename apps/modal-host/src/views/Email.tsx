import { isEmail } from '@porthole/shared'
import { useState } from 'react'
import * as Auth from '../actions/auth.js'
import * as Modal from '../actions/modal.js'
import { Icon } from '../components/Icon.js'
import { failureText, t } from '../i18n/en.js'
import { EmailVerifyOtpView } from './lazyViews.js'

/**
 * Readies what an e-mail sign-in needs while the address is typed: the wallet frame (its
 * warm-up) and the code view's chunk.
 */
function warmUp(): void {
  Auth.warmUp()
  // A failed fetch is tried again when the code view is shown.
  void EmailVerifyOtpView.preload().catch(() => {})
}

/** The e-mail field: on Connect (above the wallets) and as the EmailLogin view. */
export function EmailForm({ autoFocus = false }: { autoFocus?: boolean }) {
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (event: React.FormEvent) => {
    event.preventDefault()
    if (busy) return
    if (!isEmail(email.trim())) {
      setError(t('invalidEmail'))
      return
    }
    setBusy(true)
    setError(null)
    try {
      await Auth.emailLogin(email.trim())
    } catch (e) {
      setError(failureText(e))
      Modal.shake()
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="ph-email" onSubmit={submit} noValidate>
      <label className="ph-search" data-invalid={error ? 'true' : undefined}>
        <Icon name="mail" size={18} />
        <span className="ph-visually-hidden">{t('email')}</span>
        <input
          type="email"
          name="email"
          autoComplete="email"
          placeholder={t('email')}
          value={email}
          {...(autoFocus ? { 'data-autofocus': true } : {})}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'ph-email-error' : undefined}
          onChange={(e) => {
            setEmail(e.target.value)
            warmUp()
          }}
          onPointerDown={warmUp}
        />
        {busy ? (
          <span className="ph-spinner" role="status" aria-label={t('loading')} />
        ) : email ? (
          <button type="submit" className="ph-icon-button" aria-label={t('continue')}>
            <Icon name="chevron" size={18} />
          </button>
        ) : null}
      </label>
      {error ? (
        <p id="ph-email-error" className="ph-field-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  )
}

/** EmailLogin: the e-mail form on its own. */
export function EmailLogin() {
  return <EmailForm autoFocus />
}
