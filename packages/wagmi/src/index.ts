/**
 * `@porthole/wagmi`: a wagmi connector for Porthole.
 *
 * @example
 * import { porthole } from '@porthole/wagmi'
 * createConfig({ chains, connectors: [porthole({ projectId: 'YOUR_PROJECT_ID' })], transports })
 */
export { type PortholeParameters, type PortholeProperties, porthole } from './porthole.js'
