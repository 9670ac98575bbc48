/**
 * Serves the wagmi example (`apps/wagmi-example/dist`, built by `npm run build`) on its own
 * origin, with the modal URL, the project id and the devnets' RPC URLs written into its page.
 */
import { readFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
}

/** Parameters of {@link startWagmiExampleServer}. */
export type StartWagmiExampleServerParameters = {
  port: number
  /** The built example (`apps/wagmi-example/dist`). */
  root: string
  /** Hosts to bind; default both loopback addresses so `localhost` works either way. */
  hosts?: string[]
  modalUrl: string
  projectId: string
  /** RPC URLs of the devnets (chains 31337 and 31338) for wagmi's transports. */
  devnetRpc: string
  devnetBRpc: string
}

/** What {@link startWagmiExampleServer} returns. */
export type StartWagmiExampleServerReturnType = { close(): Promise<void> }

/** `value` as an HTML attribute value. */
const attribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/**
 * Starts the example's server.
 *
 * @example
 * const example = await startWagmiExampleServer({
 *   port: 4030,
 *   root: 'apps/wagmi-example/dist',
 *   modalUrl: 'http://127.0.0.1:4100',
 *   projectId: 'porthole-demo',
 *   devnetRpc: 'http://127.0.0.1:8545',
 *   devnetBRpc: 'http://127.0.0.1:8546',
 * })
 * await example.close()
 */
export async function startWagmiExampleServer(
  parameters: StartWagmiExampleServerParameters,
): Promise<StartWagmiExampleServerReturnType> {
  const { port, root } = parameters
  // Read on each request: a rebuild (new hashed asset names) shows without a restart.
  const page = async () =>
    (await readFile(join(root, 'index.html'), 'utf8'))
      .replaceAll('__PORTHOLE_MODAL_URL__', attribute(parameters.modalUrl))
      .replaceAll('__PORTHOLE_PROJECT_ID__', attribute(parameters.projectId))
      .replaceAll('__PORTHOLE_DEVNET_RPC__', attribute(parameters.devnetRpc))
      .replaceAll('__PORTHOLE_DEVNET_B_RPC__', attribute(parameters.devnetBRpc))
  // Fail at start, not on the first visit, when the example was not built.
  await page()

  const handler = async (request: IncomingMessage, response: ServerResponse) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname))
    try {
      if (path === '/' || path === '/index.html') {
        const html = await page()
        response.writeHead(200, { 'content-type': TYPES['.html']!, 'cache-control': 'no-cache' })
        return response.end(html)
      }
      const file = join(root, path)
      if (!file.startsWith(root + sep)) throw new Error('outside root')
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
  const close = () =>
    Promise.all(servers.map((s) => new Promise<void>((done) => s.close(() => done())))).then(
      () => {},
    )
  try {
    for (const host of parameters.hosts ?? ['127.0.0.1', '::1']) {
      const server = createServer((request, response) => void handler(request, response))
      await new Promise<void>((listening, fail) => {
        // A machine without IPv6 loopback serves on 127.0.0.1 alone.
        server.once('error', (error: NodeJS.ErrnoException) =>
          host === '::1' && error.code === 'EADDRNOTAVAIL' ? listening() : fail(error),
        )
        server.listen(port, host, () => {
          servers.push(server)
          listening()
        })
      })
    }
  } catch (error) {
    await close()
    throw error
  }
  return { close }
}
