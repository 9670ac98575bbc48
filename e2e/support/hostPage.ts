/**
 * A minimal third-party host page on any origin: just the one script tag. Used to test
 * origins that are (or are not) on a project's allowlist.
 */
import { createServer, type Server } from 'node:http'
import { endpoints } from '@porthole/shared'

/**
 * Serves `<script src=".../sdk.js" data-project-id=…>` (or the given `html`) on
 * `http://{hostname}:{port}` (default `localhost`; any `*.localhost` name reaches it too, as
 * another site). A real loopback server: Chromium lets its pages reach the loopback frames.
 */
export async function startHostPage(
  port: number,
  projectId: string | null,
  hostname = 'localhost',
  page?: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const attribute = projectId === null ? '' : ` data-project-id="${projectId}"`
  const html =
    page ??
    `<!doctype html><html><head><title>Third-party host</title>
<script src="${endpoints().modal}/sdk.js"${attribute} data-networks="eip155:31337"></script></head>
<body><button id="open">Open</button></body></html>`
  const servers: Server[] = []
  for (const host of ['127.0.0.1', '::1']) {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end(html)
    })
    await new Promise<void>((ok) => {
      server.once('error', () => ok())
      server.listen(port, host, () => {
        servers.push(server)
        ok()
      })
    })
  }
  return {
    url: `http://${hostname}:${port}`,
    close: () =>
      Promise.all(servers.map((s) => new Promise<void>((ok) => s.close(() => ok())))).then(
        () => {},
      ),
  }
}
