/**
 * RegisterAccountName and RegisterAccountNameSuccess (spec §2, §4 "Name registration"): an
 * embedded account picks a name, checked as it is typed (spec §5) and against the registry
 * (taken or free, with free alternatives), signs it in the wallet frame and registers it.
 */
import { useEffect, useState } from 'react'
import * as Modal from '../actions/modal.js'
import * as Names from '../actions/names.js'
import { Icon } from '../components/Icon.js'
import { t } from '../i18n/en.js'
import { tn } from '../i18n/names.js'
import { nameInputMessage } from '../rules/names.js'
import { useModal } from '../store/store.js'
import './transfer.css'

/** How long typing must pause before the registry is asked (spec §9: 300 ms search wait). */
const SUGGEST_DELAY_MS = 300

type Suggestion = { name: string; registered: boolean }

/** The registry's answer for one label, while it is the label in the field. */
type Lookup =
  | { label: string; status: 'loading' }
  | { label: string; status: 'done'; suggestions: Suggestion[] }
  | { label: string; status: 'failed'; message: string }

/** The label part of a full name (`alice.porthole.id` → `alice`). */
const labelOf = (name: string | undefined) => name?.split('.')[0] ?? ''

/**
 * Suggestions for `label` once typing pauses; a label that breaks the rule is not sent.
 */
function useSuggestions(label: string): Lookup | null {
  const [lookup, setLookup] = useState<Lookup | null>(null)
  useEffect(() => {
    if (!label || nameInputMessage(label)) {
      setLookup(null)
      return
    }
    let current = true
    setLookup({ label, status: 'loading' })
    const timer = setTimeout(() => {
      Names.suggestNames(label).then(
        (suggestions) => current && setLookup({ label, status: 'done', suggestions }),
        (error: Error) => current && setLookup({ label, status: 'failed', message: error.message }),
      )
    }, SUGGEST_DELAY_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [label])
  return lookup?.label === label ? lookup : null
}

/** RegisterAccountName: the name field, its state, suggestions, and Register. */
export function RegisterAccountName({
  name,
  error,
}: {
  name?: string | undefined
  error?: string | undefined
}) {
  const [label, setLabel] = useState(labelOf(name))
  const [failure, setFailure] = useState<string | null>(error ?? null)
  // A failed registration comes back as this screen with the error (spec §2).
  useEffect(() => {
    if (!error) return
    setFailure(error)
    setLabel(labelOf(name))
  }, [name, error])
  const loading = useModal((s) => s.loading)
  const typed = label.trim()
  const lookup = useSuggestions(typed)
  const ruleKey = nameInputMessage(typed)
  const asked = lookup?.status === 'done' ? lookup.suggestions[0] : undefined
  const taken = asked?.registered === true
  const others = lookup?.status === 'done' ? lookup.suggestions.slice(1) : []

  const register = async (full: string) => {
    if (loading) return
    setFailure(null)
    try {
      await Names.registerAccountName(full)
    } catch (e) {
      // The view was replaced with the error (registerAccountName navigates); when this one
      // is still mounted (the signing never opened), show it here.
      setFailure((e as Error).message)
      Modal.shake()
    }
  }
  const submit = async (event: React.FormEvent) => {
    event.preventDefault()
    if (!typed || ruleKey || loading) {
      if (!typed || ruleKey) Modal.shake()
      return
    }
    if (taken) {
      Modal.shake()
      return
    }
    let full = asked?.name
    if (!full) {
      try {
        const [first] = await Names.suggestNames(typed)
        if (!first) throw new Error(tn('errorFetchingNameSuggestions'))
        if (first.registered) {
          setFailure(tn('nameTaken'))
          Modal.shake()
          return
        }
        full = first.name
      } catch (e) {
        setFailure((e as Error).message)
        Modal.shake()
        return
      }
    }
    await register(full)
  }

  const message = ruleKey
    ? tn(ruleKey)
    : taken
      ? tn('nameTaken')
      : lookup?.status === 'failed'
        ? lookup.message
        : failure
  return (
    <form className="ph-form" noValidate onSubmit={submit} data-testid="register-name">
      <label className="ph-field">
        <span className="ph-label" id="ph-name-label">
          {tn('nameLabel')}
        </span>
        <span className="ph-search ph-flush" data-invalid={message ? 'true' : undefined}>
          <Icon name="at" size={18} />
          <input
            name="name"
            aria-labelledby="ph-name-label"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={64}
            value={label}
            data-autofocus
            disabled={loading}
            aria-invalid={message ? 'true' : undefined}
            aria-describedby={message ? 'ph-name-error' : 'ph-name-hint'}
            onChange={(event) => {
              setLabel(event.target.value)
              setFailure(null)
            }}
          />
          {loading || lookup?.status === 'loading' ? (
            <span className="ph-spinner" role="status" aria-label={t('loading')} />
          ) : asked ? (
            <span className="ph-tag" data-tone={taken ? undefined : 'success'}>
              {tn(taken ? 'nameRegistered' : 'nameAvailable')}
            </span>
          ) : null}
        </span>
        {asked ? (
          <span className="ph-muted" data-testid="name-full">
            {asked.name}
          </span>
        ) : (
          <span className="ph-muted" id="ph-name-hint">
            {tn('nameHint')}
          </span>
        )}
      </label>
      {message ? (
        <p id="ph-name-error" className="ph-field-error" role="alert" data-testid="name-error">
          {message}
        </p>
      ) : null}
      {taken && others.length ? (
        <div className="ph-field">
          <span className="ph-label">{tn('nameSuggestions')}</span>
          <ul className="ph-list">
            {others.map((other) => (
              <li key={other.name}>
                <button
                  type="button"
                  className="ph-row"
                  disabled={loading}
                  onClick={() => {
                    setLabel(labelOf(other.name))
                    void register(other.name)
                  }}
                >
                  <span className="ph-row-name">{other.name}</span>
                  <span className="ph-tag" data-tone="success">
                    {tn('nameAvailable')}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <button
        type="submit"
        className="ph-button"
        disabled={loading || !typed || !!ruleKey || taken}
      >
        {tn('registerName')}
      </button>
    </form>
  )
}

/** RegisterAccountNameSuccess: the name is the account's now. */
export function RegisterAccountNameSuccess({ name }: { name: string }) {
  return (
    <div className="ph-center" data-testid="register-name-success">
      <span className="ph-loader">
        <Icon name="check" size={40} />
      </span>
      <h3>{name}</h3>
      <p className="ph-muted">{tn('nameRegisteredHint', { name })}</p>
      <button type="button" className="ph-button" data-autofocus onClick={Modal.back}>
        {tn('backToAccount')}
      </button>
    </div>
  )
}
