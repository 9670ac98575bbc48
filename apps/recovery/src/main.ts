/**
 * Runs the recovery key service until SIGINT/SIGTERM: `npm start -w @porthole/recovery`. Every
 * setting comes from the environment (see `config.ts` and the README); with
 * `PORTHOLE_ENV=production` it refuses to start on any local development default, and it never
 * starts beside another service's secrets.
 */
import { resolveRecoveryConfig } from './config.js'
import { startRecoveryService } from './startRecoveryService.js'

let service: Awaited<ReturnType<typeof startRecoveryService>>
try {
  service = await startRecoveryService()
} catch (error) {
  console.error(`The recovery service cannot start: ${(error as Error).message}`)
  process.exit(1)
}
const config = resolveRecoveryConfig(process.env)
console.log(
  `Recovery key service at ${service.url} (public ${config.publicUrl}, data in ${config.dataDir})`,
)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    if (stopping) return
    stopping = true
    void service.close().then(() => process.exit(0))
  })
