// Import cycles are refused (STYLE: "import cycles checked"). Reads every workspace's `src`,
// follows the static relative imports that exist at runtime (`import … from`, `export … from`,
// bare `import '…'`; not `import type`/`export type`, not dynamic `import()`), and fails
// `npm run lint` on any cycle. Our own small walker: madge wants TypeScript 5 as a peer, which npm
// refuses beside the project's TypeScript 7 (dependency-cruiser was not tried).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { workspaceDirs } from './workspaces.mjs'

const roots = workspaceDirs()
  .map((dir) => join(dir, 'src'))
  .filter((dir) => existsSync(dir))

const SOURCE = /\.(?:ts|tsx|mts)$/
const IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return files(path)
    return SOURCE.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** `./x.js` as written in an import → the source file it names. */
function resolveImport(from, specifier) {
  const base = resolve(dirname(from), specifier)
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    base.replace(/\.mjs$/, '.mts'),
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
  ]
  return candidates.find((path) => existsSync(path) && statSync(path).isFile())
}

let found = 0
for (const root of roots) {
  const graph = new Map()
  for (const file of files(root)) {
    const text = readFileSync(file, 'utf8')
    const edges = []
    for (const match of text.matchAll(IMPORT)) {
      // `import { type A, type B } from` brings nothing at runtime either.
      const clause = /^\s*(?:import|export)\s+([^'";]*?)\s+from\s/.exec(match[0])?.[1]?.trim()
      const names = clause ? /^\{([^}]*)\}$/.exec(clause)?.[1] : undefined
      const typeOnly = names
        ?.split(',')
        .map((name) => name.trim())
        .filter(Boolean)
        .every((name) => name.startsWith('type '))
      if (typeOnly) continue
      const target = resolveImport(file, match[1])
      if (target) edges.push(resolve(target))
    }
    graph.set(resolve(file), edges)
  }
  // Depth-first search; a grey node met again closes a cycle.
  const state = new Map()
  const stack = []
  const visit = (node) => {
    state.set(node, 'grey')
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'grey') {
        const cycle = stack.slice(stack.indexOf(next)).map((path) => relative(root, path))
        found++
        console.error(`Import cycle in ${root}: ${[...cycle, cycle[0]].join(' → ')}`)
      } else if (!state.has(next) && graph.has(next)) visit(next)
    }
    stack.pop()
    state.set(node, 'black')
  }
  for (const node of graph.keys()) if (!state.has(node)) visit(node)
}
console.log(found ? `${found} import cycle(s)` : `No import cycles in ${roots.length} workspaces.`)
process.exit(found ? 1 : 0)
