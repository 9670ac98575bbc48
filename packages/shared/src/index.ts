export * from './endpoints.js'
export * from './origins.js'
