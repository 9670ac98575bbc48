/**
 * The name views' strings (RegisterAccountName and its success view, the name rules and the
 * registry's fallback errors): a catalogue of its own, loaded with those views so the modal's
 * first download does not carry them.
 */
import { catalogue } from './en.js'

export const names = {
  nameLabel: 'Name',
  nameHint: 'Letters, digits and hyphens, at least 4 characters.',
  nameTooShort: 'Name must be at least 4 characters long',
  nameTooLong: 'Name must be at most 63 characters long',
  nameInvalidCharacters: 'Name can only contain letters, digits and hyphens',
  nameTaken: 'Name is already taken',
  nameAvailable: 'Available',
  nameRegistered: 'Registered',
  nameSuggestions: 'Suggestions',
  registerName: 'Register name',
  nameRegisteredHint: 'This account is now {name}.',
  backToAccount: 'Back to account',
  errorRegisteringName: 'Error registering name {name}',
  errorFetchingNameSuggestions: 'Error fetching name suggestions',
} as const

/** A key of {@link names}. */
export type NamesKey = keyof typeof names

/**
 * Looks up a name view string and fills its `{placeholders}`.
 *
 * @example
 * tn('nameRegisteredHint', { name: 'alice.porthole.id' }) // 'This account is now alice.porthole.id.'
 */
export const tn = catalogue('names', names)
