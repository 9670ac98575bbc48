/**
 * JSON with exact integers: lamports, token amounts and `rentEpoch` (u64::MAX) go out as bigint
 * and are written as plain JSON numbers with every digit, as a Solana validator writes them.
 */

const MARK = '\u0000bigint:'
// JSON.stringify writes U+0000 as the six characters \u0000.
const MARKED = /"\\u0000bigint:(-?\d+)"/g

/**
 * `JSON.stringify` that writes bigints as exact JSON numbers.
 *
 * @example
 * toJson({ lamports: 18446744073709551615n }) // '{"lamports":18446744073709551615}'
 */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? `${MARK}${item}` : item,
  ).replace(MARKED, '$1')
}
