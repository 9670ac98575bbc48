/**
 * `@porthole/bundler`: the local ERC-4337 bundler (alto, `@pimlico/alto`) for the devnets'
 * EntryPoint v0.7, run as its own process.
 */
export {
  altoArguments,
  altoCliPath,
  BUNDLER_BLOCK_TIME_MS,
  BundlerPortInUseError,
  BundlerStartError,
  type StartBundlerParameters,
  type StartBundlerReturnType,
  startBundler,
} from './startBundler.js'
