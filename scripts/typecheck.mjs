// Type-checks every workspace (each has its own tsconfig: browser or Node libraries).
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const projects = [
  'packages/protocol',
  'packages/shared',
  'packages/sdk',
  'apps/modal-host',
  'apps/embedded-wallet',
  'apps/api',
  'apps/devnet',
  'apps/demo',
  'infra/static-hosting',
  'infra/local-stack',
  'e2e',
  'scripts',
]
let failed = false
for (const project of projects) {
  if (!existsSync(`${project}/tsconfig.json`)) continue
  try {
    execFileSync('node_modules/.bin/tsc', ['-p', project], { stdio: 'inherit' })
  } catch {
    failed = true
    console.error(`Type errors in ${project}`)
  }
}
process.exit(failed ? 1 : 0)
