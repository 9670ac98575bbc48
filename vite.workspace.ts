/** The Vitest test projects of the workspace; `vitest.config.ts` imports this list. */
export default [
  'packages/protocol',
  'packages/shared',
  'packages/sdk',
  'apps/modal-host',
  'apps/embedded-wallet',
  'apps/api',
  'apps/mail',
  'apps/oidc',
  'apps/recovery',
  'apps/relay',
  'apps/devnet',
  'apps/bitcoin',
  'apps/demo',
  'apps/solana',
  'infra/static-hosting',
  'infra/local-stack',
]
