/**
 * The name registry's configuration: the suffix every name carries (`PORTHOLE_NAME_SUFFIX`,
 * default `.porthole.id`).
 */
import { DEFAULT_NAME_SUFFIX } from '@porthole/shared'
import { InvalidConfigError } from '../config.js'

/** The environment variable naming the registry's suffix. */
export const NAME_SUFFIX_ENV = 'PORTHOLE_NAME_SUFFIX'

/**
 * The registry's suffix from `PORTHOLE_NAME_SUFFIX` (default `.porthole.id`): a domain name,
 * lower-cased, with one leading dot (`porthole.id` and `.porthole.id` are the same). Throws
 * `InvalidConfigError` for anything that is not a domain name.
 *
 * @example
 * resolveNameSuffix({ PORTHOLE_NAME_SUFFIX: 'names.example.com' }) // '.names.example.com'
 */
export function resolveNameSuffix(env: Record<string, string | undefined> = process.env): string {
  const raw = env[NAME_SUFFIX_ENV]?.trim()
  if (!raw) return DEFAULT_NAME_SUFFIX
  return normalizeNameSuffix(raw)
}

/**
 * A suffix in its one form: lower case, one leading dot. Throws `InvalidConfigError` unless it
 * is a domain name (dot-separated labels of letters, digits and hyphens).
 *
 * @example
 * normalizeNameSuffix('Porthole.ID') // '.porthole.id'
 */
export function normalizeNameSuffix(suffix: string): string {
  const domain = suffix.toLowerCase().replace(/^\./, '')
  const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?'
  if (domain.length > 200 || !new RegExp(`^${label}(?:\\.${label})*$`).test(domain))
    throw new InvalidConfigError(
      `${NAME_SUFFIX_ENV} must be a domain name such as porthole.id, not ${JSON.stringify(suffix)}`,
    )
  return `.${domain}`
}
