/**
 * Rewrites `?` placeholders as PostgreSQL's `$1, $2, …`, leaving question marks inside string
 * literals, quoted identifiers and comments alone.
 *
 * @example
 * toPostgresPlaceholders("SELECT * FROM t WHERE a = ? AND b = '?'") // "SELECT * FROM t WHERE a = $1 AND b = '?'"
 */
export function toPostgresPlaceholders(sql: string): string {
  let out = ''
  let index = 0
  let i = 0
  while (i < sql.length) {
    const char = sql[i]!
    const next = sql[i + 1]
    if (char === "'" || char === '"') {
      const end = closingQuote(sql, i, char)
      out += sql.slice(i, end)
      i = end
    } else if (char === '-' && next === '-') {
      const end = sql.indexOf('\n', i)
      const stop = end === -1 ? sql.length : end
      out += sql.slice(i, stop)
      i = stop
    } else if (char === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2)
      const stop = end === -1 ? sql.length : end + 2
      out += sql.slice(i, stop)
      i = stop
    } else if (char === '?') {
      index += 1
      out += `$${index}`
      i += 1
    } else {
      out += char
      i += 1
    }
  }
  return out
}

/** Index just past the quote that closes the one at `start` (a doubled quote is an escape). */
function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2
      else return i + 1
    } else i += 1
  }
  return sql.length
}
