/**
 * `@porthole/static-hosting`: serves Porthole's built front-ends on their own origins with
 * per-project security headers.
 */
export { cacheControl, isHashedAsset } from './cacheControl.ts'
export { type ContentEncoding, compress, negotiateEncoding } from './contentEncoding.ts'
export {
  type ContentSecurityPolicyParameters,
  contentSecurityPolicy,
  cspSource,
} from './contentSecurityPolicy.ts'
export { contentType, isCompressible } from './contentType.ts'
export {
  type FrameAncestorsPolicyParameters,
  type FrontendKind,
  frameAncestorsPolicy,
} from './frameAncestorsPolicy.ts'
export {
  type FrameCheckParameters,
  type FrameCheckReason,
  type FrameCheckResult,
  frameCheck,
} from './frameCheck.ts'
export {
  DEFAULT_ROOTS,
  type StartFrontendsParameters,
  type StartFrontendsReturnType,
  startFrontends,
} from './frontends.ts'
export {
  createProjectOriginsCache,
  type FetchProjectOriginsParameters,
  fetchProjectOrigins,
  PROJECT_ID,
  type ProjectOrigins,
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
  createStaticServer,
  type StartStaticServerParameters,
  type StartStaticServerReturnType,
  type StaticServer,
  type StaticServerParameters,
  startStaticServer,
} from './server.ts'
