// The workspace folders of the root package.json (`apps/*` expanded), for the repository's own
// checks (typecheck.mjs, cycles.mjs).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Every workspace folder, relative to the repository root. */
export function workspaceDirs() {
  const { workspaces } = JSON.parse(readFileSync('package.json', 'utf8'))
  return workspaces.flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(pattern.slice(0, -2), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(pattern.slice(0, -2), entry.name))
      : [pattern],
  )
}
