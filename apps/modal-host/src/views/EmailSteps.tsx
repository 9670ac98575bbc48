/**
 * The e-mail sign-in's later steps (the code, the device check) and the e-mail change: loaded on
 * demand (views/lazyViews.ts), fetched while the address is typed or when Connect idles.
 */
import type { DeviceStep } from '@porthole/protocol'
import { isEmail } from '@porthole/shared'
import { useEffect, useState } from 'react'
import * as Auth from '../actions/auth.js'
import * as Modal from '../actions/modal.js'
import { Icon } from '../components/Icon.js'
import { failureText, t } from '../i18n/en.js'
import { useModal } from '../store/store.js'

/** A six-digit code field that submits itself when complete. */
function OtpForm({ onSubmit, label }: { onSubmit: (otp: string) => Promise<void>; label: string }) {
  const [otp, setOtp] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (code: string) => {
    setBusy(true)
    setError(null)
    try {
      await onSubmit(code)
    } catch (e) {
      setError(failureText(e))
      setOtp('')
      Modal.shake()
    } finally {
      setBusy(false)
    }
  }
  return (
    <form
      className="ph-otp"
      onSubmit={(e) => {
        e.preventDefault()
        if (otp.length === 6) void submit(otp)
      }}
    >
      <label className="ph-search ph-otp-field">
        <span className="ph-visually-hidden">{label}</span>
        <input
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={6}
          data-autofocus
          placeholder="••••••"
          value={otp}
          // Read-only, not disabled, while the code is checked: focus stays in the field.
          readOnly={busy}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'ph-otp-error' : undefined}
          onChange={(e) => {
            const next = e.target.value.replace(/\D/g, '').slice(0, 6)
            setOtp(next)
            if (next.length === 6) void submit(next)
          }}
        />
        {busy ? <span className="ph-spinner" role="status" aria-label={t('loading')} /> : null}
      </label>
      {error ? (
        <p id="ph-otp-error" className="ph-field-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  )
}

/** EmailVerifyOtp: enter the code; resend after the cooldown (counted down on the button). */
export function EmailVerifyOtp({ email }: { email: string }) {
  const [resendError, setResendError] = useState<string | null>(null)
  const last = useModal((s) => s.lastEmailLoginAt) ?? 0
  const [, tick] = useState(0)
  const wait = Math.ceil((last + Auth.EMAIL_COOLDOWN_MS - Auth.clock.now()) / 1000)
  useEffect(() => {
    if (wait > 0) {
      const timer = setTimeout(() => tick((n) => n + 1), 1000)
      return () => clearTimeout(timer)
    }
  }, [wait])
  return (
    <div className="ph-center">
      <Icon name="mail" size={40} />
      <p className="ph-muted">
        {t('otpSent')} <strong>{email}</strong>
      </p>
      <OtpForm label={t('otpLabel')} onSubmit={(otp) => Auth.submitOtp(otp, email)} />
      <p className="ph-muted">
        {t('didNotGetIt')}{' '}
        <button
          type="button"
          className="ph-link-button"
          disabled={wait > 0}
          onClick={async () => {
            setResendError(null)
            try {
              await Auth.emailLogin(email)
              Modal.showToast(t('codeResent'), 'success')
            } catch (e) {
              setResendError(failureText(e))
            }
          }}
        >
          {t('resend')}
          {wait > 0 ? ` (${wait} s)` : null}
        </button>
      </p>
      {resendError ? (
        <p className="ph-field-error" role="alert">
          {resendError}
        </p>
      ) : null}
    </div>
  )
}

/**
 * EmailVerifyDevice: the step a new device (or a new wallet) needs before the wallet loads —
 * approve it from the recovery service's e-mail, or use / create the passkey on the wallet
 * frame's own card. A failure (a timeout, a cancelled passkey) can be tried again.
 */
export function EmailVerifyDevice({ email, method }: { email: string | null; method: DeviceStep }) {
  const [error, setError] = useState<string | null>(null)
  const [attempt, setAttempt] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: one wait per attempt
  useEffect(() => {
    setError(null)
    const controller = new AbortController()
    Auth.waitForDevice(controller.signal).catch((e) => {
      if (!controller.signal.aborted) setError(failureText(e))
    })
    return () => controller.abort()
  }, [attempt])
  return (
    <div className="ph-center" aria-live="polite">
      <span className="ph-loader">
        <Icon name={method === 'email' ? 'mail' : 'shield'} size={40} />
      </span>
      <h3>
        {t(
          method === 'email'
            ? 'registerDevice'
            : method === 'passkey'
              ? 'unlockWallet'
              : 'protectWallet',
        )}
      </h3>
      {method === 'email' ? (
        <p className="ph-muted">
          {t('approveFromEmail')} {email ? <strong>{email}</strong> : null}
        </p>
      ) : (
        <p className="ph-muted">
          {t(method === 'passkey' ? 'usePasskeyHint' : 'createPasskeyHint')}
        </p>
      )}
      {error ? (
        <>
          <p className="ph-field-error" role="alert">
            {error}
          </p>
          <button type="button" className="ph-button" onClick={() => setAttempt((n) => n + 1)}>
            {t('tryAgain')}
          </button>
        </>
      ) : null}
    </div>
  )
}

/** UpdateEmailWallet: the new address, then the code to the current one, then to the new one. */
export function UpdateEmailWallet({
  stage,
  email,
}: {
  stage: 'new' | 'primary' | 'secondary'
  email: string
}) {
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | null>(null)
  // Spec §2: while the codes are awaited, the user is read every second; when the e-mail has
  // changed (confirmed here or elsewhere), the view closes.
  useEffect(() => {
    if (stage === 'new') return
    let active = true
    const poll = setInterval(() => {
      void Auth.pollEmailChange(email).then((changed) => {
        if (!changed || !active || Modal.currentView() !== 'UpdateEmailWallet') return
        Modal.showToast(t('emailUpdated'), 'success')
        Modal.back()
      })
    }, Auth.EMAIL_UPDATE_POLL_MS)
    return () => {
      active = false
      clearInterval(poll)
    }
  }, [stage, email])
  if (stage === 'new')
    return (
      <form
        className="ph-center"
        noValidate
        onSubmit={async (event) => {
          event.preventDefault()
          if (!isEmail(value.trim())) return setError(t('invalidEmail'))
          try {
            await Auth.startEmailUpdate(value.trim())
          } catch (e) {
            setError(failureText(e))
          }
        }}
      >
        <p className="ph-muted">{t('updateEmailHint')}</p>
        <label className="ph-search">
          <span className="ph-visually-hidden">{t('newEmail')}</span>
          <input
            type="email"
            data-autofocus
            placeholder={t('newEmail')}
            aria-label={t('newEmail')}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        </label>
        {error ? (
          <p className="ph-field-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="ph-button">
          {t('continue')}
        </button>
      </form>
    )
  return (
    <div className="ph-center">
      <p className="ph-muted">
        {stage === 'primary' ? t('otpSentCurrent') : t('otpSent')}{' '}
        <strong>{stage === 'primary' ? t('yourCurrentEmail') : email}</strong>
      </p>
      <OtpForm
        key={stage}
        label={t('otpLabel')}
        onSubmit={async (otp) => {
          await Auth.submitEmailUpdateOtp(stage, email, otp)
          if (stage === 'secondary' && Modal.currentView() === 'UpdateEmailWallet') {
            Modal.showToast(t('emailUpdated'), 'success')
            Modal.back()
          }
        }}
      />
    </div>
  )
}
