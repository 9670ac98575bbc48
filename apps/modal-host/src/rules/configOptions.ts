/**
 * Reads the host's options one at a time (spec §3 "Configuration options"), so one bad option
 * never takes the others down and none is dropped silently: an option Porthole does not know,
 * or one that fails its schema, is refused with an error naming it; the rest are kept.
 *
 * The script tag gives every option as text (`data-features='{"email":false}'`): an object or
 * list option that arrives as JSON text is parsed first.
 */
import { Checks, type CustomWallet, type ModalConfig } from '@porthole/protocol'

/**
 * The part of a check used here: `Checks` mirror the zod schemas, first problem's text included
 * (the modal reaches neither zod nor the checks' internals).
 */
type Schema = {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: unknown }
    | { success: false; error: { issues: { message: string; path: PropertyKey[] }[] } }
}

/** What {@link readOptions} returns. */
export type ReadOptionsReturnType = {
  /** The valid options (`networks` is `[]` when missing or invalid). */
  options: ModalConfig
  /** One sentence per refused option, naming it. */
  errors: string[]
}

/** Options the SDK adds for its own use, never the dapp's. */
const INTERNAL = new Set(['storage'])

function describe(error: { issues: { message: string; path: PropertyKey[] }[] }): string {
  const issue = error.issues[0]
  if (!issue) return 'invalid'
  const at = issue.path.length ? ` at ${issue.path.map(String).join('.')}` : ''
  return `${issue.message}${at}`
}

/** The script tag's JSON text for an object or list option. */
function fromText(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*[[{]/.test(value)) return value
  try {
    return JSON.parse(value)
  } catch {
    return value
  }
}

function readGroup(
  name: 'features' | 'remoteFeatures',
  value: unknown,
  errors: string[],
): Record<string, unknown> | undefined {
  const group = fromText(value)
  if (!group || typeof group !== 'object' || Array.isArray(group)) {
    errors.push(`Option "${name}" must be an object; ignored`)
    return undefined
  }
  const shape = (name === 'features' ? Checks.Features : Checks.RemoteFeatures)
    .shape as unknown as Record<string, Schema>
  const out: Record<string, unknown> = {}
  for (const [key, entry] of Object.entries(group)) {
    const schema = Object.hasOwn(shape, key) ? shape[key] : undefined
    const option = `${name}.${key}`
    if (!schema) {
      errors.push(`Unknown option "${option}" ignored`)
      continue
    }
    const parsed = schema.safeParse(entry)
    if (parsed.success) out[key] = parsed.data
    else errors.push(`Invalid option "${option}" ignored: ${describe(parsed.error)}`)
  }
  return out
}

function readCustomWallets(value: unknown, errors: string[]): CustomWallet[] | undefined {
  const list = fromText(value)
  if (!Array.isArray(list)) {
    errors.push('Option "customWallets" must be a list; ignored')
    return undefined
  }
  const out: CustomWallet[] = []
  list.slice(0, 50).forEach((entry, index) => {
    const parsed = Checks.CustomWallet.safeParse(entry)
    if (parsed.success) out.push(parsed.data)
    else errors.push(`Invalid option "customWallets[${index}]" ignored: ${describe(parsed.error)}`)
  })
  if (list.length > 50)
    errors.push('Option "customWallets": more than 50 wallets; the rest ignored')
  return out
}

/**
 * Validates `hello.config` option by option.
 *
 * @example
 * readOptions({ networks: ['eip155:1'], themeMode: 'blue', features: '{"email":false}' })
 * // { options: { networks: ['eip155:1'], features: { email: false } },
 * //   errors: ['Invalid option "themeMode" ignored: …'] }
 */
export function readOptions(raw: unknown): ReadOptionsReturnType {
  const errors: string[] = []
  const options: Record<string, unknown> = { networks: [] }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    if (raw !== undefined) errors.push('Invalid configuration ignored: not an object')
    return { options: options as ModalConfig, errors }
  }
  const shape = Checks.ModalConfig.shape as unknown as Record<string, Schema>
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue
    // Own keys only: `constructor` or `toString` would find Object's and throw.
    const schema = Object.hasOwn(shape, key) ? shape[key] : undefined
    if (!schema) {
      errors.push(`Unknown option "${key}" ignored`)
      continue
    }
    if (INTERNAL.has(key)) {
      options[key] = value
      continue
    }
    if (key === 'features' || key === 'remoteFeatures') {
      const group = readGroup(key, value, errors)
      if (group) options[key] = group
      continue
    }
    if (key === 'customWallets') {
      const wallets = readCustomWallets(value, errors)
      if (wallets) options[key] = wallets
      continue
    }
    let parsed = schema.safeParse(value)
    if (!parsed.success && fromText(value) !== value) parsed = schema.safeParse(fromText(value))
    if (parsed.success) options[key] = parsed.data
    else errors.push(`Invalid option "${key}" ignored: ${describe(parsed.error)}`)
  }
  if (!Array.isArray(options.networks)) options.networks = []
  return { options: options as ModalConfig, errors }
}
