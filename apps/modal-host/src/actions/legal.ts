import { store } from '../store/store.js'

/**
 * Records whether the user ticked the terms checkbox (`features.legalCheckbox`); until then
 * every connect button is disabled. Kept for the page's life, not persisted.
 *
 * @example
 * acceptLegal(true)
 */
export function acceptLegal(accepted: boolean): void {
  store.setState({ legalAccepted: accepted })
}
