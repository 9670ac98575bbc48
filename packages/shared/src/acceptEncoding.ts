/**
 * `Accept-Encoding` negotiation, one rule for every Porthole server (the API, the static
 * front-end server).
 */

/** A body encoding Porthole's servers produce. */
export type ContentEncoding = 'br' | 'gzip' | 'identity'

/**
 * Picks the encoding for an `Accept-Encoding` header: the highest q-value among br and gzip,
 * br on a tie, identity when neither is acceptable.
 *
 * @example
 * negotiateEncoding('gzip, deflate, br') // 'br'
 * negotiateEncoding('gzip;q=1, br;q=0') // 'gzip'
 */
export function negotiateEncoding(header: string | undefined): ContentEncoding {
  if (!header) return 'identity'
  const q = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const value = qParam ? Number(qParam.slice(2)) : 1
    q.set(name.trim() === 'x-gzip' ? 'gzip' : name.trim(), Number.isNaN(value) ? 0 : value)
  }
  const weight = (name: string) => q.get(name) ?? q.get('*') ?? 0
  const br = weight('br')
  const gz = weight('gzip')
  if (br > 0 && br >= gz) return 'br'
  if (gz > 0) return 'gzip'
  return 'identity'
}
