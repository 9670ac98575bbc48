import type { ModalConfig } from '@porthole/protocol'
import type { ResolvedConfig } from '../store/types.js'

/**
 * The `siwx` option as the modal uses it: `{ required, statement? }`, the script tag's
 * `'required'` / `'optional'`, or null (no sign-in).
 *
 * @example
 * siwxOption('required') // { required: true }
 */
export function siwxOption(value: ModalConfig['siwx']): ResolvedConfig['siwx'] {
  if (value === undefined) return null
  if (typeof value === 'string') return { required: value === 'required' }
  return { required: value.required, ...(value.statement ? { statement: value.statement } : {}) }
}
