// Type-checks every workspace that has a tsconfig.json (browser and Node packages use
// different libraries, so each is checked on its own), plus scripts/.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const { workspaces } = JSON.parse(readFileSync('package.json', 'utf8'))
const projects = workspaces
  .flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(pattern.slice(0, -2), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(pattern.slice(0, -2), entry.name))
      : [pattern],
  )
  .concat('scripts')
  .filter((dir) => existsSync(join(dir, 'tsconfig.json')))

let failed = false
for (const project of projects) {
  try {
    execFileSync('node_modules/.bin/tsc', ['-p', project], { stdio: 'inherit' })
  } catch {
    failed = true
    console.error(`Type errors in ${project}`)
  }
}
console.log(`Type-checked ${projects.length} projects${failed ? ' (with errors)' : ''}.`)
process.exit(failed ? 1 : 0)
