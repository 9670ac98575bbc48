// Type-checks every workspace that has a tsconfig.json (browser and Node packages use
// different libraries, so each is checked on its own), plus scripts/.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { workspaceDirs } from './workspaces.mjs'

const projects = workspaceDirs()
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
