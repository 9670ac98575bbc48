/**
 * Sign-in messages (spec §3 "Sign-in message", §4 "Wallet sign-in"): EIP-4361 for eip155 and
 * its CAIP-122 shape for solana ("… sign in with your Solana account:"). The modal builds them,
 * the API parses and checks them; a host's server verifies the eip155 ones with viem's
 * `verifySiweMessage`.
 */

/** The fields of a sign-in message. */
export type SiwxMessage = {
  domain: string
  address: string
  statement?: string | undefined
  uri: string
  version: '1'
  /** The CAIP-2 reference: `1` for eip155:1, the genesis reference for solana. */
  chainId: string
  nonce: string
  issuedAt: string
  expirationTime?: string | undefined
  notBefore?: string | undefined
  requestId?: string | undefined
  resources?: string[] | undefined
}

/** The namespaces sign-in supports. */
export type SiwxNamespace = 'eip155' | 'solana'

const ACCOUNT_WORD: Record<SiwxNamespace, string> = { eip155: 'Ethereum', solana: 'Solana' }

/**
 * The message text (EIP-4361 layout; viem's `createSiweMessage` gives the same for eip155).
 *
 * @example
 * formatSiwxMessage('eip155', { domain: 'app.example', address: '0xf39F…', uri: 'https://app.example', version: '1', chainId: '1', nonce: 'abcdefgh', issuedAt: '2026-11-24T10:00:00.000Z' })
 */
export function formatSiwxMessage(namespace: SiwxNamespace, m: SiwxMessage): string {
  const lines = [
    `${m.domain} wants you to sign in with your ${ACCOUNT_WORD[namespace]} account:`,
    m.address,
    '',
  ]
  // EIP-4361: the statement and its blank line, or one more blank line without one.
  lines.push(...(m.statement ? [m.statement, ''] : ['']))
  lines.push(
    `URI: ${m.uri}`,
    `Version: ${m.version}`,
    `Chain ID: ${m.chainId}`,
    `Nonce: ${m.nonce}`,
    `Issued At: ${m.issuedAt}`,
  )
  if (m.expirationTime) lines.push(`Expiration Time: ${m.expirationTime}`)
  if (m.notBefore) lines.push(`Not Before: ${m.notBefore}`)
  if (m.requestId) lines.push(`Request ID: ${m.requestId}`)
  if (m.resources?.length) lines.push('Resources:', ...m.resources.map((r) => `- ${r}`))
  return lines.join('\n')
}

const FIELDS: Record<string, keyof SiwxMessage> = {
  URI: 'uri',
  Version: 'version',
  'Chain ID': 'chainId',
  Nonce: 'nonce',
  'Issued At': 'issuedAt',
  'Expiration Time': 'expirationTime',
  'Not Before': 'notBefore',
  'Request ID': 'requestId',
}

/**
 * Parses a message text; `undefined` when it is not a well-formed sign-in message of a
 * supported namespace.
 *
 * @example
 * parseSiwxMessage(text)?.message.nonce
 */
export function parseSiwxMessage(
  text: string,
): { namespace: SiwxNamespace; message: SiwxMessage } | undefined {
  if (text.length > 8192) return undefined
  const lines = text.split('\n')
  const header = /^(\S+) wants you to sign in with your (Ethereum|Solana) account:$/.exec(
    lines[0] ?? '',
  )
  const address = lines[1]
  if (!header || !address || lines[2] !== '') return undefined
  const namespace: SiwxNamespace = header[2] === 'Ethereum' ? 'eip155' : 'solana'
  const statement = lines[3] || undefined
  if (lines[4] !== '' && statement) return undefined
  let index = statement ? 5 : 4
  const out: Partial<SiwxMessage> & { resources?: string[] } = {
    domain: header[1] as string,
    address,
    ...(statement ? { statement } : {}),
  }
  for (; index < lines.length; index++) {
    const line = lines[index] as string
    if (line === 'Resources:') {
      out.resources = lines.slice(index + 1).map((r) => r.replace(/^- /, ''))
      break
    }
    const at = line.indexOf(': ')
    const key = FIELDS[line.slice(0, at)]
    if (at < 0 || !key || out[key] !== undefined) return undefined
    ;(out as Record<string, string>)[key] = line.slice(at + 2)
  }
  if (!out.uri || out.version !== '1' || !out.chainId || !out.nonce || !out.issuedAt)
    return undefined
  return { namespace, message: out as SiwxMessage }
}

/**
 * A nonce for a sign-in message: at least 8 alphanumeric characters (EIP-4361).
 *
 * @example
 * isSiwxNonce('k2Jf8sLq0aZ') // true
 */
export function isSiwxNonce(value: string): boolean {
  return /^[A-Za-z0-9]{8,64}$/.test(value)
}
