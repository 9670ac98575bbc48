/**
 * Test helper: real OpenID providers in-process (oidc-provider with its development login
 * form), one per social provider, and a browser stand-in that signs in through them.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'
import {
  type AuthSocialProvider,
  AuthSocialProvider as Providers,
  type SocialProviderConfig,
} from '../src/config.js'

/** Running providers and the `auth.social` configuration that points at them. */
export type TestOidc = {
  social: Record<AuthSocialProvider, SocialProviderConfig>
  close(): Promise<void>
}

/**
 * Starts one OpenID provider per name (clients `porthole-<name>` / `porthole-<name>-secret`,
 * redirect URI `redirectUri`). Accounts: any login `x` has `sub` x, e-mail `x@<name>.test`,
 * name `X <name>` and preferred_username `x`. Providers not started point at a closed port.
 *
 * @example
 * const oidc = await startTestOidc(['google', 'github'], 'http://api.test/auth/v1/social/callback')
 */
export async function startTestOidc(
  names: readonly AuthSocialProvider[],
  redirectUri: string,
): Promise<TestOidc> {
  const servers: Server[] = []
  const social = {} as Record<AuthSocialProvider, SocialProviderConfig>
  for (const name of Providers.options)
    social[name] = {
      issuer: `http://127.0.0.1:1/${name}`,
      clientId: `porthole-${name}`,
      clientSecret: `porthole-${name}-secret`,
    }
  for (const name of names) {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: `porthole-${name}`,
          client_secret: `porthole-${name}-secret`,
          redirect_uris: [redirectUri],
        },
      ],
      findAccount: async (_ctx, sub) => ({
        accountId: sub,
        claims: async () => ({
          sub,
          email: `${sub}@${name}.test`,
          name: `${sub.toUpperCase()} ${name}`,
          preferred_username: sub,
        }),
      }),
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name', 'preferred_username'],
      },
      features: { devInteractions: { enabled: true } },
    })
    server.on('request', provider.callback())
    servers.push(server)
    social[name] = { ...social[name], issuer }
  }
  return {
    social,
    close: async () => {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve())
              server.closeAllConnections()
            }),
        ),
      )
    },
  }
}

export { signInAtProvider } from '@porthole/oidc'
