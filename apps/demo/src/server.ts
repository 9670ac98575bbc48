/**
 * Serves the demo dapp (a plain host page) with its modal URL, project id and Solana RPC filled
 * in. `?devWallet=1` injects the dev wallets before the SDK: the Porthole Dev Wallet (EVM,
 * EIP-6963), the Solana and the Bitcoin dev wallets (Wallet Standard).
 */
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { extname, join, normalize, resolve } from 'node:path'
import { endpoints } from '@porthole/shared'

const DIST = resolve(import.meta.dirname, '../dist')
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
}

/** The dev wallets `?devWallet=1` injects, built by `npm run build -w @porthole/demo`. */
const DEV_WALLET_SCRIPTS = ['/dev-wallet.js', '/dev-solana-wallet.js', '/dev-bitcoin-wallet.js']

/**
 * `?networks=` of the demo page: a comma list of CAIP-2 ids (anything else is ignored). `?siwx=`
 * (`required` or `optional`) turns on wallet sign-in. `?accountType=` (`eoa` or `smartAccount`) sets
 * the page's `defaultAccountTypes` for eip155.
 */
const NETWORK_LIST =
  /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}(,[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}){0,19}$/

/** Parameters of {@link startDemoServer}. */
export type StartDemoServerParameters = {
  port: number
  /** Hosts to bind; default both loopback addresses so `localhost` works either way. */
  hosts?: string[]
  modalUrl: string
  /**
   * Another modal URL per `Host` header (lower case, e.g. `{ 'app.localhost:4000':
   * 'http://connect.app.localhost:4100' }`): the same demo on a dapp site with custom domains.
   */
  hostModalUrls?: Record<string, string>
  projectId: string
  /** Serve from another folder (default `apps/demo/dist`). */
  root?: string
  /** The Solana chain the page's own code reads (blockhashes); default `endpoints().solana`. */
  solanaRpcUrl?: string
}

/**
 * Starts the demo server.
 *
 * @example
 * const demo = await startDemoServer({ port: 4000, modalUrl: 'http://127.0.0.1:4100', projectId: 'porthole-demo' })
 */
export async function startDemoServer(
  parameters: StartDemoServerParameters,
): Promise<{ close(): Promise<void> }> {
  const { port, modalUrl, projectId } = parameters
  const root = parameters.root ?? DIST
  const solanaRpcUrl = parameters.solanaRpcUrl ?? endpoints().solana
  const template = await readFile(join(root, 'index.html'), 'utf8')
  const devWallets = DEV_WALLET_SCRIPTS.map((src) => `<script src="${src}"></script>\n    `).join(
    '',
  )
  const page = (
    modalUrl: string,
    devWallet: boolean,
    networks: string | null,
    siwx: string | null,
    accountType: string | null,
  ) =>
    template
      .replaceAll('__PORTHOLE_MODAL_URL__', modalUrl.replace(/"/g, '&quot;'))
      .replaceAll('__PORTHOLE_PROJECT_ID__', projectId.replace(/"/g, '&quot;'))
      .replaceAll('__PORTHOLE_SOLANA_RPC__', solanaRpcUrl.replace(/"/g, '&quot;'))
      .replace(/data-networks="[^"]*"/, (attribute) =>
        networks && NETWORK_LIST.test(networks) ? `data-networks="${networks}"` : attribute,
      )
      .replace('<script\n', devWallet ? `${devWallets}<script\n` : '<script\n')
      // `?siwx=required|optional`: the page asks users to sign in with their wallet (SIWX).
      .replace(
        'data-networks=',
        siwx === 'required' || siwx === 'optional'
          ? `data-siwx="${siwx}"\n      data-networks=`
          : 'data-networks=',
      )
      .replace(
        'data-networks=',
        accountType === 'eoa' || accountType === 'smartAccount'
          ? `data-default-account-types='{"eip155":"${accountType}"}'\n      data-networks=`
          : 'data-networks=',
      )

  const handler = async (
    request: import('node:http').IncomingMessage,
    response: import('node:http').ServerResponse,
  ) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    const path = normalize(decodeURIComponent(url.pathname))
    try {
      if (path === '/' || path === '/index.html') {
        response.writeHead(200, { 'content-type': TYPES['.html']!, 'cache-control': 'no-cache' })
        const host = request.headers.host?.toLowerCase() ?? ''
        return response.end(
          page(
            parameters.hostModalUrls?.[host] ?? modalUrl,
            url.searchParams.get('devWallet') === '1',
            url.searchParams.get('networks'),
            url.searchParams.get('siwx'),
            url.searchParams.get('accountType'),
          ),
        )
      }
      const file = join(root, path)
      if (!file.startsWith(root)) throw new Error('outside root')
      const body = await readFile(file)
      response.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      })
      response.end(body)
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' })
      response.end('Not found')
    }
  }
  const servers: Server[] = []
  for (const host of parameters.hosts ?? ['127.0.0.1', '::1']) {
    const server = createServer((req, res) => void handler(req, res))
    await new Promise<void>((ok, fail) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        host === '::1' && error.code === 'EADDRNOTAVAIL' ? ok() : fail(error),
      )
      server.listen(port, host, () => {
        servers.push(server)
        ok()
      })
    })
  }
  return {
    close: () =>
      Promise.all(servers.map((s) => new Promise<void>((ok) => s.close(() => ok())))).then(
        () => {},
      ),
  }
}
