/**
 * Runs the recovery key service until SIGINT/SIGTERM: `npm start -w @porthole/recovery`. Every
 * setting comes from the environment (see `config.ts` and the README); with
 * `PORTHOLE_ENV=production` it refuses to start on any local development default.
 */
import { productionProblems, resolveRecoveryConfig } from './config.js'
import { startRecoveryService } from './startRecoveryService.js'

const config = resolveRecoveryConfig(process.env)
if (config.production) {
  const problems = productionProblems(config)
  if (problems.length > 0) {
    console.error(
      `PORTHOLE_ENV=production, but the recovery service would run on development defaults:\n${problems.map((p) => `- ${p}`).join('\n')}`,
    )
    process.exit(1)
  }
}
const service = await startRecoveryService()
console.log(`Recovery key service at ${service.url} (data in ${config.dataDir})`)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    if (stopping) return
    stopping = true
    void service.close().then(() => process.exit(0))
  })
