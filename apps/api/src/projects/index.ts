/** Projects entry (`@porthole/api/projects`): project ids, origin allowlists and features. */

export {
  type AddProjectDomainErrorType,
  type AddProjectDomainParameters,
  type AddProjectDomainReturnType,
  addProjectDomain,
} from './addProjectDomain.js'
export {
  type AllowOriginParameters,
  type AllowOriginReturnType,
  allowOrigin,
} from './allowOrigin.js'
export {
  type CreateDomainCacheParameters,
  createDomainCache,
  type DomainCache,
} from './createDomainCache.js'
export {
  type CreateProjectErrorType,
  type CreateProjectParameters,
  type CreateProjectReturnType,
  createProject,
} from './createProject.js'
export {
  type CreateProjectCacheParameters,
  createProjectCache,
  type ProjectCache,
} from './createProjectCache.js'
export { type CustomDomainCorsParameters, customDomainCors } from './customDomainCors.js'
export { type DenyOriginParameters, type DenyOriginReturnType, denyOrigin } from './denyOrigin.js'
export {
  DEFAULT_REMOTE_FEATURES,
  isAnalyticsEnabled,
  OnrampProvider,
  ProjectFeatures,
  parseStoredFeatures,
  RemoteFeatures,
  resolveRemoteFeatures,
  SocialProvider,
  SwapProvider,
} from './features.js'
export { getProject } from './getProject.js'
export { listProjectDomains } from './listProjectDomains.js'
export { listProjects } from './listProjects.js'
export {
  assertProjectId,
  InvalidOriginPatternError,
  InvalidProjectIdError,
  type Project,
  ProjectExistsError,
  ProjectId,
  ProjectNotFoundError,
} from './Project.js'
export {
  CustomDomainTakenError,
  InvalidCustomDomainError,
  normaliseCustomOrigin,
  type ProjectDomain,
  type ProjectDomainKind,
  passkeyRpIdOf,
  siteOf,
} from './ProjectDomain.js'
export {
  type RemoveProjectDomainParameters,
  type RemoveProjectDomainReturnType,
  removeProjectDomain,
} from './removeProjectDomain.js'
export { type SeedDemoProjectParameters, seedDemoProject } from './seedDemoProject.js'
export { type SetProjectFeaturesParameters, setProjectFeatures } from './setProjectFeatures.js'
export {
  OriginNotAllowedError,
  type TrustOriginErrorType,
  type TrustOriginParameters,
  type TrustOriginReturnType,
  trustOrigin,
  untrustOrigin,
  WildcardTrustError,
} from './trustOrigin.js'
