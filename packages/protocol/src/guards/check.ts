/**
 * A zod-free checker for the modal's first download (issue 26): zod is ~25 KiB of it. Each
 * check here mirrors one `zod/mini` building block the frame contracts use, with the same
 * answers: what it accepts, the value it returns (unknown keys stripped or kept alike, the same
 * key order), and the first problem's English text and path, which the modal prints for a
 * refused option. The zod schemas stay the reference; `frames.test.ts` runs both on every test
 * vector and on generated hostile input.
 *
 * Behaviour copied from zod 4's runtime that is easy to miss, and why it matters here:
 * - string lengths count code points, not UTF-16 units (an emoji is one character);
 * - an issue is "final" (`continue` unset) or not: a union whose options all fail answers with
 *   the one option whose issues were all non-final, else 'Invalid input';
 * - an array longer than its maximum is refused before its items are looked at;
 * - an object reads keys with `in` and `[]` (inherited ones too), as zod does.
 */

/** One problem: its English message, where it is, and whether checking went on past it. */
export type Issue = { message: string; path: PropertyKey[]; continue?: true }

/** What a check returns: the parsed value (meaningless with issues) and the problems. */
export type Outcome = { value: unknown; issues: Issue[] }

/** The answer of {@link Check.safeParse}, shaped as zod's. */
export type SafeParseResult<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: Issue[] } }

/** A check of one value; `T` is the parsed type (taken from the zod schema it mirrors). */
export type Check<T = unknown> = {
  run(value: unknown): Outcome
  safeParse(value: unknown): SafeParseResult<T>
  /** Set on optional checks: an object may leave their key out. */
  optional?: true
}

/** An object check; `shape` gives each key's own check (options are read one at a time). */
export type ObjectCheck<T = unknown> = Check<T> & { shape: Record<string, Check> }

const make = <T>(run: (value: unknown) => Outcome, optional?: boolean): Check<T> => ({
  run,
  safeParse(value) {
    const { value: data, issues } = run(value)
    return issues.length
      ? { success: false, error: { issues } }
      : { success: true, data: data as T }
  },
  ...(optional ? { optional: true as const } : {}),
})

const ok = (value: unknown): Outcome => ({ value, issues: [] })
const fail = (value: unknown, message: string, more = false): Outcome => ({
  value,
  issues: [more ? { message, path: [], continue: true } : { message, path: [] }],
})
const final = (issues: Issue[]) => issues.some((issue) => issue.continue !== true)
const within = (key: PropertyKey, issues: Issue[]) => {
  for (const issue of issues) issue.path.unshift(key)
  return issues
}

const isObject = (x: unknown): x is Record<PropertyKey, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x)

/** The name zod's messages give a value's type. */
function typeName(x: unknown): string {
  if (typeof x === 'number')
    return Number.isNaN(x) ? 'NaN' : Number.isFinite(x) ? 'number' : String(x)
  if (x === null) return 'null'
  if (Array.isArray(x)) return 'array'
  if (typeof x === 'object') {
    const found = x as { constructor?: { name?: unknown } }
    if (
      Object.getPrototypeOf(x) !== Object.prototype &&
      'constructor' in found &&
      found.constructor
    )
      return found.constructor.name as string
  }
  return typeof x
}

const wrongType = (expected: string, x: unknown) =>
  fail(x, `Invalid input: expected ${expected}, received ${typeName(x)}`)

const shown = (x: unknown) => (typeof x === 'string' ? `"${x}"` : `${String(x)}`)

/** Code points, as zod counts a string's length (a lone surrogate counts as one). */
function codePoints(text: string): number {
  let count = text.length
  for (let i = 0; i < text.length - 1; i++) {
    if ((text.charCodeAt(i) & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--
      i++
    }
  }
  return count
}

/** A check that runs on a value of the right type; returns a message, or nothing when it passes. */
type Rule<T> = (value: T) => Issue | undefined

/** At most `max` characters (code points). */
export const maxLength =
  (max: number): Rule<string> =>
  (text) =>
    text.length > max && codePoints(text) > max
      ? {
          message: `Too big: expected string to have <=${max} characters`,
          path: [],
          continue: true,
        }
      : undefined

/** At least `min` characters (code points). */
export const minLength =
  (min: number): Rule<string> =>
  (text) =>
    text.length < min || (text.length < min * 2 && codePoints(text) < min)
      ? {
          message: `Too small: expected string to have >=${min} characters`,
          path: [],
          continue: true,
        }
      : undefined

/** Matches `pattern` (no `g` or `y` flag). */
export const regex =
  (pattern: RegExp): Rule<string> =>
  (text) =>
    pattern.test(text)
      ? undefined
      : { message: `Invalid string: must match pattern ${pattern}`, path: [], continue: true }

/**
 * A string passing `rules` in order (all run; their problems are not final).
 *
 * @example
 * const Text = (max: number) => string(maxLength(max))
 */
export function string(...rules: Rule<string>[]): Check<string> {
  return make((x) => {
    if (typeof x !== 'string') return wrongType('string', x)
    const issues: Issue[] = []
    for (const rule of rules) {
      const issue = rule(x)
      if (issue) issues.push(issue)
    }
    return { value: x, issues }
  })
}

/** A number rule; a problem without `continue` stops the rules after it, as in zod. */
type NumberRule = (value: number) => Issue | undefined

const bound = (message: string): Issue => ({ message, path: [], continue: true })

/** A safe integer. A fraction is final; an unsafe integer is not. */
export const int: NumberRule = (n) => {
  if (!Number.isInteger(n))
    return { message: 'Invalid input: expected int, received number', path: [] }
  if (Number.isSafeInteger(n)) return undefined
  return n > 0
    ? bound(`Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}`)
    : bound(`Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}`)
}

/** Greater than 0. */
export const positive: NumberRule = (n) =>
  n > 0 ? undefined : bound('Too small: expected number to be >0')

/** At least `min`. */
export const minimum =
  (min: number): NumberRule =>
  (n) =>
    n >= min ? undefined : bound(`Too small: expected number to be >=${min}`)

/** At most `max`. */
export const maximum =
  (max: number): NumberRule =>
  (n) =>
    n <= max ? undefined : bound(`Too big: expected number to be <=${max}`)

/**
 * A finite number passing `rules` in order, stopping at a final problem.
 *
 * @example
 * const decimals = number(int, minimum(0), maximum(36))
 */
export function number(...rules: NumberRule[]): Check<number> {
  return make((x) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) return wrongType('number', x)
    const issues: Issue[] = []
    for (const rule of rules) {
      const issue = rule(x)
      if (!issue) continue
      issues.push(issue)
      if (issue.continue !== true) break
    }
    return { value: x, issues }
  })
}

/** `true` or `false`. */
export const boolean: Check<boolean> = make((x) =>
  typeof x === 'boolean' ? ok(x) : wrongType('boolean', x),
)

/** Anything (an object key checked with it must still be there). */
export const unknown: Check<unknown> = make(ok)

/**
 * One of `values` (zod's `enum` and `literal`).
 *
 * @example
 * const themeMode = oneOf('light', 'dark')
 */
export function oneOf<const V extends readonly (string | number | boolean)[]>(
  ...values: V
): Check<V[number]> {
  const message =
    values.length === 1
      ? `Invalid input: expected ${shown(values[0])}`
      : `Invalid option: expected one of ${values.map(shown).join('|')}`
  return make((x) => (values.includes(x as never) ? ok(x) : fail(x, message)))
}

/**
 * `undefined` or what `inner` accepts; an object may leave the key out.
 *
 * @example
 * object({ view: optional(oneOf('Connect', 'Account')) })
 */
export function optional<T>(inner: Check<T>): Check<T | undefined> {
  return make((x) => (x === undefined ? ok(x) : inner.run(x)), true)
}

/** `null` or what `inner` accepts. */
export function nullable<T>(inner: Check<T>): Check<T | null> {
  return make((x) => (x === null ? ok(x) : inner.run(x)), inner.optional)
}

/**
 * The first option that accepts; when none does, zod's choice of problem (see the top).
 *
 * @example
 * const socials = union(array(string(maxLength(16)), 16), oneOf(false))
 */
export function union<T>(...options: Check[]): Check<T> {
  return make((x) => {
    const outcomes: Outcome[] = []
    for (const option of options) {
      const outcome = option.run(x)
      if (!outcome.issues.length) return outcome
      outcomes.push(outcome)
    }
    const open = outcomes.filter((outcome) => !final(outcome.issues))
    return open.length === 1 ? (open[0] as Outcome) : fail(x, 'Invalid input')
  })
}

/**
 * An array of `item`s, `min`–`max` long; one over `max` is refused before its items.
 *
 * @example
 * const versions = array(number(int, positive), 16, 1)
 */
export function array<T>(item: Check<T>, max: number, min = 0): Check<T[]> {
  return make((x) => {
    if (!Array.isArray(x)) return wrongType('array', x)
    const tooLong = `Too big: expected array to have <=${max} items`
    if (x.length > max) return fail(x, tooLong)
    const value: unknown[] = Array(x.length)
    const issues: Issue[] = []
    for (let i = 0; i < x.length; i++) {
      const outcome = item.run(x[i])
      issues.push(...within(i, outcome.issues))
      value[i] = outcome.value
    }
    if (x.length < min) issues.push(bound(`Too small: expected array to have >=${min} items`))
    return { value, issues }
  })
}

type Extra = 'strip' | 'strict' | 'loose'

/**
 * An object with `shape`'s keys, in its order. Unknown keys: `strip` leaves them out (zod's
 * `object`), `strict` refuses them (`strictObject`), `loose` keeps them (`looseObject`).
 *
 * @example
 * const parsed = object({ name: string(maxLength(100)) }).safeParse({ name: 'Dapp', x: 1 })
 * // { success: true, data: { name: 'Dapp' } }
 */
export function object<T>(shape: Record<string, Check>, extra: Extra = 'strip'): ObjectCheck<T> {
  const keys = Object.keys(shape)
  const check = make<T>((x) => {
    if (!isObject(x)) return wrongType('object', x)
    const value: Record<string, unknown> = {}
    const issues: Issue[] = []
    for (const key of keys) {
      const field = shape[key] as Check
      const present = key in x
      if (!present && field.optional) continue
      const outcome = field.run(x[key])
      issues.push(...within(key, outcome.issues))
      if (!present) {
        if (!outcome.issues.length)
          issues.push({
            message: 'Invalid input: expected nonoptional, received undefined',
            path: [key],
          })
        continue
      }
      value[key] = outcome.value
    }
    if (extra === 'strip') return { value, issues }
    const unknownKeys: string[] = []
    for (const key in x) {
      if (Object.hasOwn(shape, key)) continue
      if (extra === 'strict') unknownKeys.push(key)
      else if (key !== '__proto__') value[key] = x[key]
    }
    if (unknownKeys.length)
      issues.push(
        bound(
          `Unrecognized key${unknownKeys.length > 1 ? 's' : ''}: ${unknownKeys.map(shown).join(', ')}`,
        ),
      )
    return { value, issues }
  })
  return { ...check, shape }
}

/** Each key of `shape` optional (zod's `partial`). */
export function partial<T>(shape: Record<string, Check>): ObjectCheck<T> {
  const optionalShape: Record<string, Check> = {}
  for (const key of Object.keys(shape)) optionalShape[key] = optional(shape[key] as Check)
  return object<T>(optionalShape)
}

/** zod's test for a record: a plain object, or one whose `constructor` is not a function. */
function isPlainObject(x: unknown): x is Record<PropertyKey, unknown> {
  if (!isObject(x)) return false
  const maker = (x as { constructor?: unknown }).constructor
  if (typeof maker !== 'function') return true
  const prototype: unknown = maker.prototype
  return isObject(prototype) && Object.hasOwn(prototype, 'isPrototypeOf')
}

/**
 * A record: each own enumerable key passes `key`, its value `entry`. A key that fails is an
 * error (`Invalid key in record`), or with `known` (zod's `partialRecord` of an enum) an
 * unrecognized key.
 *
 * @example
 * const themeVariables = record(string(maxLength(64)), union(string(maxLength(256)), number()))
 */
export function record<T>(key: Check, entry: Check, known = false): Check<T> {
  return make((x) => {
    if (!isPlainObject(x)) return wrongType('record', x)
    const value: Record<PropertyKey, unknown> = {}
    const issues: Issue[] = []
    const unknownKeys: PropertyKey[] = []
    for (const name of Reflect.ownKeys(x)) {
      if (name === '__proto__' || !Object.prototype.propertyIsEnumerable.call(x, name)) continue
      if (key.run(name).issues.length) {
        if (known) unknownKeys.push(name)
        else issues.push({ message: 'Invalid key in record', path: [name] })
        continue
      }
      const outcome = entry.run(x[name])
      issues.push(...within(name, outcome.issues))
      value[name] = outcome.value
    }
    if (unknownKeys.length)
      issues.push(
        bound(
          `Unrecognized key${unknownKeys.length > 1 ? 's' : ''}: ${unknownKeys.map(shown).join(', ')}`,
        ),
      )
    return { value, issues }
  })
}

/** What `inner` accepts that also passes `test` (zod's `refine`; its problem is not final). */
export function refine<T>(inner: Check<T>, test: (value: T) => boolean, message: string): Check<T> {
  return make((x) => {
    const outcome = inner.run(x)
    if (final(outcome.issues) || test(outcome.value as T)) return outcome
    return { value: outcome.value, issues: [...outcome.issues, bound(message)] }
  })
}
