/**
 * Compiles the devnet's Solidity sources (`contracts/*.sol`) offline with the `solc` npm
 * package (soljson) and writes the artifacts (`artifacts/<Name>.json`) and typed ABI modules
 * (`src/abi/*.ts`). The outputs are committed, so starting a devnet never compiles.
 *
 * Run: `npm run compile -w @porthole/devnet`.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Abi, Hex } from 'viem'

const packageDir = fileURLToPath(new URL('..', import.meta.url))

/** The contracts compiled into artifacts, each with its typed ABI module and export name. */
export const CONTRACTS = {
  TestERC20: { abiModule: 'src/abi/erc20.ts', abiExport: 'testErc20Abi' },
  TestERC721: { abiModule: 'src/abi/erc721.ts', abiExport: 'testErc721Abi' },
  IdRegistry: { abiModule: 'src/abi/idRegistry.ts', abiExport: 'idRegistryAbi' },
  // SimpleAccount v0.7 with ERC-1271 and session keys, and its factory (the devnets'
  // `DEVNET_AA.accountFactory`, which deploys the account itself: the account's artifact is
  // for its ABI and tests).
  PortholeSimpleAccount: {
    source: 'PortholeSimpleAccount.sol',
    abiModule: 'src/abi/portholeSimpleAccount.ts',
    abiExport: 'portholeSimpleAccountAbi',
  },
  PortholeSimpleAccountFactory: {
    source: 'PortholeSimpleAccount.sol',
    abiModule: 'src/abi/portholeSimpleAccountFactory.ts',
    abiExport: 'portholeSimpleAccountFactoryAbi',
  },
} as const

/** Name of a compiled contract (its source file is `contracts/<Name>.sol` unless it names one). */
export type ContractName = keyof typeof CONTRACTS

/** The source file of a contract. */
const sourceOf = (name: ContractName): string => {
  const entry = CONTRACTS[name]
  return 'source' in entry ? entry.source : `${name}.sol`
}

const requireFrom = createRequire(import.meta.url)

/** solc's import callback: `@scope/package/…` sources from node_modules (offline). */
function findImports(path: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(requireFrom.resolve(path), 'utf8') }
  } catch {
    return { error: `Source not found: ${path}` }
  }
}

/** A committed artifact: `artifacts/<Name>.json`. */
export type Artifact = {
  contractName: ContractName
  compiler: string
  abi: Abi
  bytecode: Hex
}

/** The exact compiler and settings; changing them changes every artifact. */
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
} as const

type SolcOutput = {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[]
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
}

/** Error thrown when solc reports errors for the devnet contracts. */
export class CompileError extends Error {
  override name = 'CompileError'
}

/**
 * Compiles every contract of {@link CONTRACTS} in memory (~2–3 s, mostly loading soljson).
 *
 * @example
 * const { TestERC20 } = await compileContracts()
 * TestERC20.bytecode // '0x6080…'
 */
export async function compileContracts(): Promise<Record<ContractName, Artifact>> {
  const { default: solc } = await import('solc')
  const names = Object.keys(CONTRACTS) as ContractName[]
  const sources = Object.fromEntries(
    names.map((name) => [
      sourceOf(name),
      { content: readFileSync(join(packageDir, 'contracts', sourceOf(name)), 'utf8') },
    ]),
  )
  const output = JSON.parse(
    solc.compile(JSON.stringify({ language: 'Solidity', sources, settings: SETTINGS }), {
      import: findImports,
    }),
  ) as SolcOutput
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length) throw new CompileError(errors.map((e) => e.formattedMessage).join('\n'))
  const compiler = `solc ${solc.version() as string}`
  const out = {} as Record<ContractName, Artifact>
  for (const name of names) {
    const contract = output.contracts?.[sourceOf(name)]?.[name]
    if (!contract) throw new CompileError(`solc produced no output for ${name}`)
    out[name] = {
      contractName: name,
      compiler,
      abi: contract.abi,
      bytecode: `0x${contract.evm.bytecode.object}`,
    }
  }
  return out
}

/**
 * Path of the committed artifact of `name`.
 *
 * @example
 * artifactPath('TestERC20') // '/…/apps/devnet/artifacts/TestERC20.json'
 */
export function artifactPath(name: ContractName): string {
  return join(packageDir, 'artifacts', `${name}.json`)
}

/**
 * Reads the committed artifact of `name` from disk.
 *
 * @example
 * readArtifact('TestERC721').abi
 */
export function readArtifact(name: ContractName): Artifact {
  return JSON.parse(readFileSync(artifactPath(name), 'utf8')) as Artifact
}

/**
 * Compiles and writes `artifacts/<Name>.json` and the typed ABI modules, then formats the
 * modules with Biome. Returns the files written.
 *
 * @example
 * await writeArtifacts() // ['…/artifacts/TestERC20.json', …]
 */
export async function writeArtifacts(): Promise<string[]> {
  const artifacts = await compileContracts()
  const written: string[] = []
  const modules: string[] = []
  for (const [name, artifact] of Object.entries(artifacts) as [ContractName, Artifact][]) {
    const file = artifactPath(name)
    writeFileSync(file, `${JSON.stringify(artifact, null, 2)}\n`)
    written.push(file)
    const { abiModule, abiExport } = CONTRACTS[name]
    const moduleFile = join(packageDir, abiModule)
    writeFileSync(moduleFile, abiModuleSource(name, abiExport, artifact.abi))
    modules.push(moduleFile)
  }
  formatWithBiome(modules)
  return [...written, ...modules]
}

function abiModuleSource(name: ContractName, exportName: string, abi: Abi): string {
  return `// Generated by src/compile.ts from contracts/${sourceOf(name)} — do not edit.

/**
 * ABI of the devnet's \`${name}\` contract, typed \`as const\` for viem.
 *
 * @example
 * await client.readContract({ address, abi: ${exportName}, functionName: 'name' })
 */
export const ${exportName} = ${JSON.stringify(abi, null, 2)} as const
`
}

function formatWithBiome(files: string[]): void {
  let biome: string
  try {
    const require = createRequire(import.meta.url)
    biome = join(dirname(require.resolve('@biomejs/biome/package.json')), 'bin', 'biome')
  } catch {
    console.warn('biome not found: the ABI modules are left unformatted')
    return
  }
  const result = spawnSync(process.execPath, [biome, 'format', '--write', ...files], {
    stdio: 'inherit',
  })
  if (result.status !== 0) throw new Error('biome format failed on the ABI modules')
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now()
  const files = await writeArtifacts()
  console.log(`compiled in ${Math.round(performance.now() - started)} ms:`)
  for (const file of files) console.log(`  ${file}`)
}
