/**
 * Runs the dev OpenID provider until interrupted, at PORTHOLE_OIDC_URL (default
 * http://127.0.0.1:4600), with the API's social callback (from PORTHOLE_API_URL) as the
 * clients' redirect URI. Run: `npm start -w @porthole/oidc`.
 */
import { endpoints, portOf } from '@porthole/shared'
import { startOidcProvider } from './startOidcProvider.ts'

const started = performance.now()
const base = new URL(endpoints().oidc)
const oidc = await startOidcProvider({
  host: base.hostname.replace(/^\[|\]$/g, ''),
  port: portOf(base.href),
})
for (const [provider, client] of Object.entries(oidc.clients))
  console.log(`${provider.padEnd(8)} ${client.issuer}  client ${client.clientId}`)
console.log(`dev OpenID provider ready in ${Math.round(performance.now() - started)} ms`)

const shutdown = async () => {
  await oidc.close()
  process.exit(0)
}
process.once('SIGINT', shutdown)
process.once('SIGTERM', shutdown)
