/**
 * `@porthole/static-hosting`: serves Porthole's built front-ends on their own origins with
 * per-project security headers.
 */

// Moved to @porthole/shared (apps/api answers nginx with them, and negotiates encodings the
// same way); re-exported for existing users.
export {
  type ContentEncoding,
  type FrameAncestorsPolicyParameters,
  type FrameCheckParameters,
  type FrameCheckReason,
  type FrameCheckResult,
  type FrontendKind,
  frameAncestorsPolicy,
  frameCheck,
  negotiateEncoding,
  type ProjectOrigins,
} from '@porthole/shared'
export { cacheControl, isHashedAsset } from './cacheControl.ts'
export { type CompressOptions, compress } from './contentEncoding.ts'
export {
  type ContentSecurityPolicyParameters,
  contentSecurityPolicy,
  cspSource,
} from './contentSecurityPolicy.ts'
export { contentType, isCompressible } from './contentType.ts'
export {
  type CustomDomain,
  type CustomDomainLookup,
  type CustomDomainsCache,
  type CustomDomainsCacheParameters,
  createCustomDomainsCache,
  type ProjectDomainsLookup,
  requestOrigin,
} from './customDomains.ts'
export {
  DEFAULT_ROOTS,
  type StartFrontendsParameters,
  type StartFrontendsReturnType,
  startFrontends,
} from './frontends.ts'
export {
  type ProjectIdParameter,
  projectIdParameter,
} from './projectIdParameter.ts'
export {
  createProjectOriginsCache,
  type FetchProjectOriginsParameters,
  fetchProjectOrigins,
  PROJECT_ID,
  type ProjectOriginsCache,
  type ProjectOriginsCacheParameters,
} from './projectOrigins.ts'
export {
  CONFIG_PLACEHOLDER,
  escapeHtmlAttribute,
  injectRuntimeConfig,
  type RuntimeConfig,
} from './runtimeConfig.ts'
export {
  InvalidSdkVersionError,
  isSdkPath,
  isVersionedSdkPath,
  readSdkVersion,
  SDK_CALLS_FILE,
  SDK_CHAINS_FILE,
  SDK_PACKAGE_JSON,
  SDK_PATH,
  type SdkFilesParameters,
  sdkFiles,
  versionedSdkCallsPath,
  versionedSdkChainsPath,
  versionedSdkPath,
} from './sdkFiles.ts'
export {
  createStaticServer,
  type StartStaticServerParameters,
  type StartStaticServerReturnType,
  type StaticServer,
  type StaticServerParameters,
  startStaticServer,
} from './server.ts'
