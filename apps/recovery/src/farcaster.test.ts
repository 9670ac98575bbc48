/**
 * Farcaster owners at the recovery service: the service checks the Sign In With Farcaster
 * message itself (a Porthole login for the project asked about, naming one site, freshness,
 * custody signature, the IdRegistry's custody address) and opens a share only for a message
 * whose nonce names the device key that signs the request, sealed for that custody address.
 */
import { createHash, randomBytes, webcrypto } from 'node:crypto'
import { createFarcasterMessage, portholeRequestId } from '@porthole/shared'
import { type Address, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { createRecoveryApp } from './app.js'
import { productionProblems, resolveRecoveryConfig } from './config.js'
import type { FarcasterCheck } from './farcaster.js'
import { deriveSealKey, seal } from './seal.js'

const WALLET = 'http://wallet.localhost:4200'
/** The site the user signs in on (named by the message). */
const SITE = 'http://localhost:4000'
const MASTER = randomBytes(32)
const SHARE = Buffer.from('a recovery share of 33 bytes!!!!!').toString('base64')
const custody = privateKeyToAccount(generatePrivateKey())
const other = privateKeyToAccount(generatePrivateKey())
const FID = 9001
const OTHER_FID = 9002

/** The IdRegistry: FID → custody (or whoever it was moved to), OTHER_FID → other. */
const custodyOfFid = new Map<number, Address>()
const registry: FarcasterCheck = {
  chainId: 31337,
  custodyOf: async (fid: bigint): Promise<Address> =>
    fid === BigInt(FID)
      ? (custodyOfFid.get(FID) ?? custody.address)
      : fid === BigInt(OTHER_FID)
        ? other.address
        : zeroAddress,
}

function app(options: { farcaster?: FarcasterCheck | null; now?: () => number } = {}) {
  const recovery = createRecoveryApp({
    masterKey: MASTER,
    publicUrl: 'http://127.0.0.1:4700',
    allowedOrigins: [WALLET],
    mailer: { send: async () => {} },
    verifyIdToken: async () => {
      throw new Error('no ID tokens here')
    },
    farcaster: options.farcaster === undefined ? registry : options.farcaster,
    onError: () => {},
    ...(options.now ? { now: options.now } : {}),
  })
  return async (path: string, body: unknown) => {
    const response = await recovery.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: 'project-1', ...(body as object) }),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
}

/** A device key as the wallet frame makes one, and the SIWF nonce that names it. */
async function deviceKey() {
  const pair = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const { x, y } = (await webcrypto.subtle.exportKey('jwk', pair.publicKey)) as {
    x: string
    y: string
  }
  const publicJwk = { kty: 'EC' as const, crv: 'P-256' as const, x, y }
  const nonce = createHash('sha256')
    .update(JSON.stringify({ crv: 'P-256', kty: 'EC', x, y }))
    .digest('hex')
  const sign = async (binding: string, ciphertext: string) => {
    const digest = createHash('sha256').update(ciphertext, 'utf8').digest('base64url')
    const signature = await webcrypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      pair.privateKey,
      new TextEncoder().encode(`porthole-recovery:decrypt:v1\n${binding}\n${digest}`),
    )
    return Buffer.from(signature).toString('base64url')
  }
  return { publicJwk, nonce, sign }
}

async function signIn(
  nonce: string,
  overrides: {
    fid?: number
    signer?: typeof custody
    domain?: string
    uri?: string
    /** The message's Request ID; default a Porthole login for project-1. */
    requestId?: string | undefined
    issuedAt?: Date
  } = {},
) {
  const signer = overrides.signer ?? custody
  const requestId =
    'requestId' in overrides
      ? overrides.requestId
      : portholeRequestId({ projectId: 'project-1', projectName: 'Project one' })
  const message = createFarcasterMessage({
    domain: overrides.domain ?? new URL(SITE).host,
    uri: overrides.uri ?? `${SITE}/`,
    nonce,
    fid: overrides.fid ?? FID,
    custody: signer.address,
    chainId: 31337,
    ...(requestId ? { requestId } : {}),
    ...(overrides.issuedAt ? { issuedAt: overrides.issuedAt } : {}),
  })
  return { message, signature: await signer.signMessage({ message }) }
}

async function sealed(post: ReturnType<typeof app>, fid = FID) {
  const owner = await signIn('anything0', {
    fid,
    signer: fid === FID ? custody : other,
  })
  const response = await post('/v1/recovery/encrypt', {
    owner: { kind: 'farcaster', ...owner },
    share: SHARE,
  })
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body.ciphertext as string
}

async function decrypt(
  post: ReturnType<typeof app>,
  ciphertext: string,
  key: Awaited<ReturnType<typeof deviceKey>>,
  login: { message: string; signature: string },
  binding = key.nonce,
) {
  return post('/v1/recovery/decrypt', {
    ciphertext,
    proof: {
      kind: 'farcaster',
      message: login.message,
      messageSignature: login.signature,
      publicKey: key.publicJwk,
      signature: await key.sign(binding, ciphertext),
    },
  })
}

describe('Farcaster owners', () => {
  test('seal for a fid, and open with a fresh sign-in whose nonce names the signing device key', async () => {
    const post = app()
    const ciphertext = await sealed(post)
    const key = await deviceKey()
    const opened = await decrypt(post, ciphertext, key, await signIn(key.nonce))
    expect(opened).toEqual({ status: 200, body: { share: SHARE } })
  })

  test('a sign-in is good once', async () => {
    const post = app()
    const ciphertext = await sealed(post)
    const key = await deviceKey()
    const login = await signIn(key.nonce)
    expect((await decrypt(post, ciphertext, key, login)).status).toBe(200)
    const again = await decrypt(post, ciphertext, key, login)
    expect(again.status).toBe(403)
    expect(again.body.code).toBe('TOKEN_USED')
  })

  test('a sign-in made for another device key opens nothing (the API operator saw it)', async () => {
    const post = app()
    const ciphertext = await sealed(post)
    const victimKey = await deviceKey()
    const login = await signIn(victimKey.nonce)
    const attackerKey = await deviceKey()
    const stolen = await decrypt(post, ciphertext, attackerKey, login, victimKey.nonce)
    expect(stolen.status).toBe(403)
    expect(stolen.body.code).toBe('INVALID_PROOF')
    // With the victim's public key named, the attacker's signature does not verify.
    const forged = await post('/v1/recovery/decrypt', {
      ciphertext,
      proof: {
        kind: 'farcaster',
        message: login.message,
        messageSignature: login.signature,
        publicKey: victimKey.publicJwk,
        signature: await attackerKey.sign(victimKey.nonce, ciphertext),
      },
    })
    expect(forged.body.code).toBe('INVALID_PROOF')
  })

  test('another fid cannot open the share', async () => {
    const post = app()
    const ciphertext = await sealed(post, FID)
    const key = await deviceKey()
    const opened = await decrypt(
      post,
      ciphertext,
      key,
      await signIn(key.nonce, { fid: OTHER_FID, signer: other }),
    )
    expect(opened.status).toBe(400)
    expect(opened.body.code).toBe('DECRYPT_FAILED')
  })

  test('a login approved on one site is not presented as another site’s', async () => {
    const post = app()
    const ciphertext = await sealed(post)
    const key = await deviceKey()
    const login = await signIn(key.nonce)
    const proof = {
      kind: 'farcaster',
      message: login.message,
      messageSignature: login.signature,
      publicKey: key.publicJwk,
      signature: await key.sign(key.nonce, ciphertext),
    }
    const other = await post('/v1/recovery/decrypt', {
      site: 'https://evil.example',
      ciphertext,
      proof,
    })
    expect(other).toMatchObject({ status: 403, body: { code: 'INVALID_PROOF' } })
    // Refused before it counted: the same message still opens on its own site.
    const own = await post('/v1/recovery/decrypt', { site: SITE, ciphertext, proof })
    expect(own).toEqual({ status: 200, body: { share: SHARE } })
  })

  test('a login the user approved for another project, or one that is no Porthole login, opens nothing', async () => {
    const post = app()
    const ciphertext = await sealed(post)
    const key = await deviceKey()
    for (const requestId of [
      portholeRequestId({ projectId: 'project-2', projectName: 'Project one' }),
      'porthole:project-10:x',
      undefined,
      'login-7',
    ]) {
      const answer = await decrypt(post, ciphertext, key, await signIn(key.nonce, { requestId }))
      expect(answer.status, String(requestId)).toBe(401)
      expect(answer.body).toMatchObject({ code: 'INVALID_FARCASTER_SIGN_IN', reason: 'project' })
    }
    // Sealing for a project needs a login for that project too.
    const other = await post('/v1/recovery/encrypt', {
      projectId: 'project-2',
      owner: { kind: 'farcaster', ...(await signIn('anything0')) },
      share: SHARE,
    })
    expect(other.body).toMatchObject({ code: 'INVALID_FARCASTER_SIGN_IN', reason: 'project' })
  })

  test('a share sealed for one custody address opens for no other after the fid moves; a share sealed for the fid alone (before) still opens', async () => {
    const post = app()
    const ciphertext = await sealed(post)
    const legacy = seal(deriveSealKey(MASTER), SHARE, {
      projectId: 'project-1',
      identity: `farcaster:${FID}`,
    })
    const thief = privateKeyToAccount(generatePrivateKey())
    custodyOfFid.set(FID, thief.address)
    try {
      const key = await deviceKey()
      const taken = await decrypt(post, ciphertext, key, await signIn(key.nonce, { signer: thief }))
      expect(taken).toMatchObject({ status: 400, body: { code: 'DECRYPT_FAILED' } })
      // The old custody key is not the fid's any more.
      const oldKey = await deviceKey()
      const old = await decrypt(post, ciphertext, oldKey, await signIn(oldKey.nonce))
      expect(old.body).toMatchObject({ reason: 'custody' })
      const legacyKey = await deviceKey()
      const opened = await decrypt(
        post,
        legacy,
        legacyKey,
        await signIn(legacyKey.nonce, { signer: thief }),
      )
      expect(opened).toEqual({ status: 200, body: { share: SHARE } })
    } finally {
      custodyOfFid.delete(FID)
    }
  })

  test('refuses a message by a key that is not the fid’s custody, for another site, or stale', async () => {
    const post = app()
    const ciphertext = await sealed(post)
    const key = await deviceKey()
    const refusal = async (login: { message: string; signature: string }) => {
      const answer = await decrypt(post, ciphertext, key, login)
      expect(answer.status).toBe(401)
      expect(answer.body.code).toBe('INVALID_FARCASTER_SIGN_IN')
      return answer.body.reason
    }
    expect(await refusal(await signIn(key.nonce, { signer: other }))).toBe('custody')
    // The domain shown must be the site of the URI (and a site at all).
    expect(await refusal(await signIn(key.nonce, { domain: 'evil.example' }))).toBe('domain')
    expect(await refusal(await signIn(key.nonce, { uri: `${SITE}/login` }))).toBe('domain')
    expect(
      await refusal(
        await signIn(key.nonce, {
          domain: 'wallet.localhost:4200',
          uri: `${WALLET}/`,
          requestId: undefined,
        }),
      ),
    ).toBe('project')
    expect(
      await refusal(await signIn(key.nonce, { issuedAt: new Date(Date.now() - 11 * 60_000) })),
    ).toBe('expired')
    const forged = await signIn(key.nonce)
    expect(
      await refusal({ message: forged.message, signature: (await signIn('zzzzzzzz1')).signature }),
    ).toBe('signature')
    // Sealing accepts a sign-in of the last hour.
    const owner = await signIn('anything0', { issuedAt: new Date(Date.now() - 30 * 60_000) })
    const response = await post('/v1/recovery/encrypt', {
      owner: { kind: 'farcaster', ...owner },
      share: SHARE,
    })
    expect(response.status).toBe(200)
  })

  test('refused when Farcaster is not configured; 503 when the IdRegistry cannot be read', async () => {
    const key = await deviceKey()
    const login = await signIn(key.nonce)
    const off = await app({ farcaster: null })('/v1/recovery/encrypt', {
      owner: { kind: 'farcaster', ...login },
      share: SHARE,
    })
    expect(off.status).toBe(400)
    expect(off.body.code).toBe('FARCASTER_NOT_CONFIGURED')
    const down = await app({
      farcaster: {
        chainId: 31337,
        custodyOf: async () => {
          throw new Error('connection refused')
        },
      },
    })('/v1/recovery/encrypt', { owner: { kind: 'farcaster', ...login }, share: SHARE })
    expect(down.status).toBe(503)
    expect(down.body.code).toBe('REGISTRY_UNAVAILABLE')
  })
})

describe('Farcaster configuration', () => {
  test('locally: the first devnet’s IdRegistry', () => {
    expect(resolveRecoveryConfig({}).farcaster).toEqual({
      rpcUrl: 'http://127.0.0.1:8545',
      registry: '0x3eC65bfD8DeF6f6ca505a92d4BD141c8cDd05543',
      chainId: 31337,
    })
  })

  test('in production only when set, and never read from a local devnet', () => {
    expect(resolveRecoveryConfig({ PORTHOLE_ENV: 'production' }).farcaster).toBeNull()
    const env = {
      PORTHOLE_ENV: 'production',
      PORTHOLE_FARCASTER_NETWORK: 'eip155:10',
      PORTHOLE_FARCASTER_ID_REGISTRY: '0x00000000Fc6c5F01Fc30151999387Bb99A9f489b',
    }
    const real = resolveRecoveryConfig({ ...env, PORTHOLE_FARCASTER_RPC: 'https://op.example' })
    expect(real.farcaster).toMatchObject({ chainId: 10, rpcUrl: 'https://op.example' })
    expect(productionProblems(real).some((p) => p.includes('Farcaster'))).toBe(false)
    const local = resolveRecoveryConfig({ ...env, PORTHOLE_FARCASTER_RPC: 'http://127.0.0.1:8545' })
    expect(productionProblems(local)).toContainEqual(
      expect.stringMatching(/^The Farcaster IdRegistry is read from http:\/\/127\.0\.0\.1:8545/),
    )
    expect(() => resolveRecoveryConfig({ PORTHOLE_FARCASTER_NETWORK: 'solana:x' })).toThrow(
      /PORTHOLE_FARCASTER_NETWORK/,
    )
  })
})
