/**
 * Runs the recovery key service until SIGINT/SIGTERM: `npm start -w @porthole/recovery`.
 * PORTHOLE_RECOVERY_URL (default http://127.0.0.1:4700), PORTHOLE_API_URL (ticket keys),
 * PORTHOLE_WALLET_URL plus PORTHOLE_RECOVERY_ALLOWED_ORIGINS (comma-separated, CORS),
 * PORTHOLE_RECOVERY_KEY (64 hex digits) or PORTHOLE_RECOVERY_KEY_FILE (default .data/recovery.key).
 */
import { endpoints, portOf } from '@porthole/shared'
import { parseHexKey } from './masterKey.js'
import { startRecoveryService } from './startRecoveryService.js'

const urls = endpoints()
const env = process.env
const service = await startRecoveryService({
  port: portOf(urls.recovery),
  host: new URL(urls.recovery).hostname.replace(/^\[|\]$/g, ''),
  apiUrl: urls.api,
  allowedOrigins: [
    new URL(urls.wallet).origin,
    ...(env.PORTHOLE_RECOVERY_ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  ],
  ...(env.PORTHOLE_RECOVERY_KEY
    ? { masterKey: parseHexKey(env.PORTHOLE_RECOVERY_KEY, 'PORTHOLE_RECOVERY_KEY') }
    : env.PORTHOLE_RECOVERY_KEY_FILE
      ? { keyFile: env.PORTHOLE_RECOVERY_KEY_FILE }
      : {}),
})
console.log(`Recovery key service at ${service.url} (tickets from ${urls.api})`)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    if (stopping) return
    stopping = true
    void service.close().then(() => process.exit(0))
  })
