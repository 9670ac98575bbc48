import type { ReactNode } from 'react'
import { acceptLegal } from '../actions/legal.js'
import { t } from '../i18n/en.js'
import { useModal } from '../store/store.js'

/** The terms and privacy links the dapp configured, inside a sentence of the catalogue. */
function LegalSentence() {
  const { termsConditionsUrl: terms, privacyPolicyUrl: privacy } = useModal((s) => s.config)
  const link = (href: string, label: string) => (
    <a key={href} href={href} target="_blank" rel="noopener noreferrer">
      {label}
    </a>
  )
  const links = [
    terms ? link(terms, t('terms')) : null,
    privacy ? link(privacy, t('privacy')) : null,
  ]
  const [first, second] = links.filter((node) => node !== null)
  // 'I agree to the {first} and the {second}' or 'I agree to the {first}'.
  const template = t(second ? 'legalCheckboxTwo' : 'legalCheckboxOne')
  return (
    <span>
      {template
        .split(/(\{first\}|\{second\})/)
        .map((part) => (part === '{first}' ? first : part === '{second}' ? second : part))}
    </span>
  )
}

/**
 * `features.legalCheckbox` (spec §9): a checkbox with the terms and privacy links above the
 * connect options, which stay disabled (a disabled `fieldset`) until it is ticked. With
 * `hideUntilAccepted` the content is not rendered at all before (a QR code cannot be disabled).
 * Without the option it renders its children alone.
 *
 * @example
 * <LegalGate><Connect /></LegalGate>
 */
export function LegalGate({
  children,
  hideUntilAccepted = false,
}: {
  children: ReactNode
  hideUntilAccepted?: boolean
}) {
  const required = useModal((s) => s.config.features.legalCheckbox)
  const accepted = useModal((s) => s.legalAccepted)
  if (!required) return children
  return (
    <>
      <label className="ph-legal-checkbox">
        <input
          type="checkbox"
          checked={accepted}
          data-testid="legal-checkbox"
          onChange={(event) => acceptLegal(event.target.checked)}
        />
        <LegalSentence />
      </label>
      <fieldset className="ph-gated" disabled={!accepted} data-testid="legal-gated">
        {accepted || !hideUntilAccepted ? children : null}
      </fieldset>
    </>
  )
}
