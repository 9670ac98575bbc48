/**
 * The threat ledger (issue 25, "the habit"): every surface a stranger, a host page or a session
 * holder can reach is answered in the "Threats" section of its owning app's README
 * (`shared/THREATS.md` has the questions). The surfaces are read from the code, so a new
 * endpoint, RPC method, protocol message or contract function fails `npm test` until someone has
 * written down who may call it, what one call can cost or move, and what the user sees.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { HostToModalSchema, ModalToWalletSchema } from '@porthole/protocol'

const ROOT = resolve(import.meta.dirname, '../..')

/** One kind of surface and the README whose Threats section must name each of them. */
export type SurfaceGroup = {
  /** What the names are, for the failure message. */
  kind: string
  /** The README, relative to the repository root. */
  readme: string
  /** Each surface as the README must write it, in backticks. */
  names: string[]
}

/**
 * The Threats section of a README: from a `## Threats` heading (any level-2 heading whose text
 * starts with "Threats") to the next level-2 heading, subsections included.
 *
 * @example
 * threatsSection('# x\n## Threats\n`GET /a`\n## Next') // '## Threats\n`GET /a`\n'
 */
export function threatsSection(markdown: string): string {
  const lines = markdown.split('\n')
  const out: string[] = []
  let inside = false
  for (const line of lines) {
    if (/^## /.test(line)) inside = /^## Threats\b/.test(line)
    if (inside) out.push(line)
  }
  return out.join('\n')
}

/**
 * The surfaces a Threats section has entries for: the backticked names of its subsection
 * headings (`### …`) and of the first cell of its table rows — a name merely mentioned in a
 * sentence ("`POST /x` has its own entry") is not an entry. Names are normalised: `{param}` path
 * segments read as `:param`, so `POST /v1/sessions/{address}` and `POST /v1/sessions/:address`
 * are one name.
 *
 * @example
 * namedIn('### Reads: `GET /v1/x/{id}`\n| `personal_sign` | … |') // Set { 'GET /v1/x/:id', 'personal_sign' }
 */
export function namedIn(section: string): Set<string> {
  const names = new Set<string>()
  for (const line of section.split('\n')) {
    const entry = /^#{3,} /.test(line) ? line : /^\|/.test(line) ? (line.split('|')[1] ?? '') : ''
    for (const match of entry.matchAll(/`([^`\n]+)`/g))
      names.add(match[1]!.trim().replace(/\{(\w+)\}/g, ':$1'))
  }
  return names
}

/**
 * The surfaces of `groups` that their README's Threats section does not name.
 *
 * @example
 * missingThreats([{ kind: 'API route', readme: 'apps/api/README.md', names: ['GET /x'] }])
 * // [{ kind: 'API route', readme: 'apps/api/README.md', missing: ['GET /x'] }] while unwritten
 */
export function missingThreats(
  groups: readonly SurfaceGroup[],
  read: (path: string) => string = readOrEmpty,
): { kind: string; readme: string; missing: string[] }[] {
  return groups
    .map((group) => {
      const named = namedIn(threatsSection(read(group.readme)))
      return { ...group, missing: group.names.filter((name) => !named.has(name)) }
    })
    .filter((group) => group.missing.length > 0)
    .map(({ kind, readme, missing }) => ({ kind, readme, missing }))
}

/** A file's text, or '' when it does not exist (every surface of a README not written is missing). */
function readOrEmpty(path: string): string {
  try {
    return readFileSync(resolve(ROOT, path), 'utf8')
  } catch {
    return ''
  }
}

/** Names in `source` matching `pattern`'s first group, deduplicated, in order. */
function matches(source: string, pattern: RegExp): string[] {
  return [...new Set([...source.matchAll(pattern)].map((match) => match[1]!))]
}

const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8')

/**
 * The surfaces that are not HTTP routes of the API (those come from the running app, see the
 * test): the wallet frame's RPC methods and the modal's messages to it, the host page's messages
 * to the modal, the recovery service's endpoints, the paymaster's RPC methods and the account
 * contract's state-changing functions.
 */
export function codeSurfaces(): SurfaceGroup[] {
  const walletRpc = [
    ...matches(read('apps/embedded-wallet/src/rpc.ts'), /method === '(\w+)'/g),
    ...matches(read('apps/embedded-wallet/src/solanaRpc.ts'), /method === '(\w+)'/g),
  ]
  const account = JSON.parse(read('apps/devnet/artifacts/PortholeSimpleAccount.json')) as {
    abi: { type: string; name?: string; stateMutability?: string }[]
  }
  return [
    {
      kind: 'message a host page sends the modal (HostToModal)',
      readme: 'apps/modal-host/README.md',
      names: [...Object.keys(HostToModalSchema.requests), ...Object.keys(HostToModalSchema.events)],
    },
    {
      kind: 'message the modal sends the wallet frame (ModalToWallet)',
      readme: 'apps/embedded-wallet/README.md',
      names: Object.keys(ModalToWalletSchema.requests),
    },
    {
      kind: 'RPC method the wallet frame answers',
      readme: 'apps/embedded-wallet/README.md',
      names: [...new Set(walletRpc)],
    },
    {
      kind: 'recovery service endpoint',
      readme: 'apps/recovery/README.md',
      names: [
        ...new Set(
          [
            ...read('apps/recovery/src/app.ts').matchAll(/app\.(get|post|put|delete)\('([^']+)'/g),
          ].map((match) => `${match[1]!.toUpperCase()} ${match[2]}`),
        ),
      ],
    },
    {
      kind: 'paymaster RPC method on POST /v1',
      readme: 'apps/api/README.md',
      names: matches(read('apps/api/src/paymaster/paymasterRpc.ts'), /^\s+(pm_\w+):/gm),
    },
    {
      kind: 'state-changing function of PortholeSimpleAccount',
      readme: 'apps/devnet/README.md',
      names: account.abi
        .filter(
          (item) =>
            item.type === 'function' &&
            item.stateMutability !== 'view' &&
            item.stateMutability !== 'pure',
        )
        .map((item) => `${item.name}`),
    },
  ]
}
