import { InvalidOriginPatternError, normaliseOriginPattern } from '@porthole/shared'
import { parse } from 'tldts'

/** A wildcard pattern whose base is a public suffix (`https://*.com`, `*.co.uk`, `*.github.io`). */
export class PublicSuffixPatternError extends InvalidOriginPatternError {
  override name = 'PublicSuffixPatternError'
  constructor(pattern: string, suffix: string) {
    super(pattern)
    this.message = `Invalid origin pattern: ${pattern} (${suffix} is a public suffix: the wildcard would allow every site registered under it, anyone's)`
  }
}

/**
 * Normalises an allowlist pattern (see `normaliseOriginPattern`) and refuses a wildcard over a
 * public suffix of the Public Suffix List, both its ICANN part (`com`, `co.uk`) and its private
 * part (`github.io`, `vercel.app`: anyone can get a subdomain there), and over a single-label
 * name other than `localhost` (an unlisted top-level domain). `*.localhost` stays allowed: it
 * names only this machine.
 *
 * @example
 * normaliseAllowedOriginPattern('https://*.Example.com') // 'https://*.example.com'
 * normaliseAllowedOriginPattern('https://*.co.uk') // throws PublicSuffixPatternError
 */
export function normaliseAllowedOriginPattern(pattern: string): string {
  const normalised = normaliseOriginPattern(pattern)
  const base = /^[a-z]+:\/\/\*\.([^:/]+)/.exec(normalised)?.[1]
  if (base === undefined || base === 'localhost') return normalised
  const { publicSuffix, isIcann, isPrivate } = parse(base, { allowPrivateDomains: true })
  const listed = (isIcann || isPrivate) && publicSuffix === base
  if (listed || !base.includes('.')) throw new PublicSuffixPatternError(normalised, base)
  return normalised
}
