// Installs the workspace's npm dependencies when they are missing or older than the lockfile,
// so `npm start` and `npm test` work straight after a fresh clone.
import { execSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'

const marker = 'node_modules/.package-lock.json'
const stale =
  !existsSync(marker) || statSync(marker).mtimeMs < statSync('package-lock.json').mtimeMs
if (stale) {
  console.log('Installing dependencies (npm ci)…')
  execSync('npm ci', { stdio: 'inherit' })
}
