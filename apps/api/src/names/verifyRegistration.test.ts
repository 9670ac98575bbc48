/**
 * The signature check against a real chain: a contract account (ERC-1271) is checked with its
 * owner's signature through the API's chain client for the devnet; through the API, only the
 * user's own smart account (the factory's salt-0 account of the user's key) registers a name.
 */
import {
  DEV_ACCOUNTS,
  deployAccountAbstraction,
  devnetChain,
  type StartAnvilReturnType,
  startAnvil,
} from '@porthole/devnet'
import { evmCoinType, NameAccount, nameMessage } from '@porthole/shared'
import { toSimpleAccount } from '@porthole/shared/simpleAccount'
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  publicActions,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { createTestApp, PROJECT_ID, type TestApp } from '../../test/testApp.js'
import { ensureEmailUser } from '../auth/users.js'
import { createSignatureVerifier } from './verifyRegistration.js'

/**
 * `OwnedAccount`, compiled with solc 0.8.37 (optimizer 200 runs, cancun):
 *
 *   contract OwnedAccount {
 *     address public immutable owner;
 *     constructor(address owner_) { owner = owner_; }
 *     function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
 *       if (signature.length != 65) return 0xffffffff;
 *       bytes32 r = bytes32(signature[0:32]);
 *       bytes32 s = bytes32(signature[32:64]);
 *       uint8 v = uint8(signature[64]);
 *       return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
 *     }
 *   }
 */
const OWNED_ACCOUNT_BYTECODE: Hex =
  '0x60a0604052348015600e575f5ffd5b5060405161034e38038061034e833981016040819052602b91603b565b6001600160a01b03166080526066565b5f60208284031215604a575f5ffd5b81516001600160a01b0381168114605f575f5ffd5b9392505050565b6080516102ca6100845f395f8181606e015261014101526102ca5ff3fe608060405234801561000f575f5ffd5b5060043610610034575f3560e01c80631626ba7e146100385780638da5cb5b14610069575b5f5ffd5b61004b6100463660046101c4565b6100a8565b6040516001600160e01b031990911681526020015b60405180910390f35b6100907f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b039091168152602001610060565b5f604182146100c057506001600160e01b03196101bd565b5f6100ce602082858761023b565b6100d791610262565b90505f6100e860406020868861023b565b6100f191610262565b90505f8585604081811061010757610107610280565b604080515f8152602081018083528c9052939091013560f81c90830181905260608301869052608083018590529250506001600160a01b037f0000000000000000000000000000000000000000000000000000000000000000169060019060a0016020604051602081039080840390855afa158015610188573d5f5f3e3d5ffd5b505050602060405103516001600160a01b0316146101ae576001600160e01b03196101b7565b630b135d3f60e11b5b93505050505b9392505050565b5f5f5f604084860312156101d6575f5ffd5b83359250602084013567ffffffffffffffff8111156101f3575f5ffd5b8401601f81018613610203575f5ffd5b803567ffffffffffffffff811115610219575f5ffd5b86602082840101111561022a575f5ffd5b939660209190910195509293505050565b5f5f85851115610249575f5ffd5b83861115610255575f5ffd5b5050820193919092039150565b8035602083101561027a575f19602084900360031b1b165b92915050565b634e487b7160e01b5f52603260045260245ffdfea2646970667358221220e51e9e1bd0092d49fd57871991ea3e8d1a56bf91a3e3f30ce9246d1bd7b40be964736f6c63430008250033'
const ownedAccountAbi = [
  {
    type: 'constructor',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'owner_', type: 'address' }],
  },
] as const

const owner = privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount(generatePrivateKey())
let anvil: StartAnvilReturnType
let contract: Hex

beforeAll(async () => {
  anvil = await startAnvil({ port: 0, chainId: 31337, silent: true })
  const deployer = createWalletClient({
    account: privateKeyToAccount(DEV_ACCOUNTS[0]!.privateKey),
    transport: http(anvil.rpcUrl),
  }).extend(publicActions)
  const hash = await deployer.deployContract({
    chain: null,
    abi: ownedAccountAbi,
    bytecode: OWNED_ACCOUNT_BYTECODE,
    args: [owner.address],
  })
  contract = getAddress((await deployer.waitForTransactionReceipt({ hash })).contractAddress as Hex)
})
afterAll(async () => {
  await anvil?.stop()
})

test("a contract account's signature is checked on its chain (ERC-1271): its owner's counts, a stranger's does not", async () => {
  const verify = createSignatureVerifier({ 'eip155:31337': anvil.rpcUrl })
  const message = nameMessage({ name: 'vault.porthole.id', timestamp: 1 })
  const signed = (signer: typeof owner) => signer.signMessage({ message })
  expect(
    await verify({ address: contract, message, signature: await signed(owner), chainId: 31337 }),
  ).toBe(true)
  expect(
    await verify({ address: contract, message, signature: await signed(stranger), chainId: 31337 }),
  ).toBe(false)
  // An EOA still verifies through the chain, and without it.
  const eoa = { address: owner.address, message, signature: await signed(owner) }
  expect(await verify({ ...eoa, chainId: 31337 })).toBe(true)
  expect(await verify({ ...eoa, chainId: 999 })).toBe(true)
  // Without the chain, a contract account cannot be checked: refused, not trusted.
  expect(
    await verify({ address: contract, message, signature: await signed(owner), chainId: 999 }),
  ).toBe(false)
})

describe('smart accounts register through the API, which asks the devnet', () => {
  let t: TestApp
  beforeAll(async () => {
    await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })
  })
  beforeEach(async () => {
    t = await createTestApp({ upstreams: { 'eip155:31337': anvil.rpcUrl } }, { catalogue: false })
    // `owner` is an embedded-wallet user of the project (its wallet address).
    const { user } = await ensureEmailUser(t.db, PROJECT_ID, 'owner@example.com')
    await t.db.execute('UPDATE auth_users SET address = ? WHERE id = ?', [
      owner.address.toLowerCase(),
      user.id,
    ])
  })
  afterEach(async () => {
    await t.close()
  })

  const client = () =>
    createPublicClient({
      chain: devnetChain({ chainId: 31337, rpcUrl: anvil.rpcUrl }),
      transport: http(anvil.rpcUrl),
    })

  /** Registers `name` for `address`, signed by `sign`. */
  const register = async (name: string, address: Hex, sign: (message: string) => Promise<Hex>) => {
    const message = nameMessage({ name, timestamp: Math.floor(Date.now() / 1000) })
    const response = await t.post('/v1/profile/account', {
      coin_type: evmCoinType(31337),
      address,
      message,
      signature: await sign(message),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }

  test("the user's own smart account (not deployed yet: ERC-6492) registers a name", async () => {
    const account = await toSimpleAccount({ client: client(), owner })
    const result = await register('smart-vault.porthole.id', account.address, (message) =>
      account.signMessage({ message }),
    )
    expect(result.status, JSON.stringify(result.body)).toBe(200)
    const resolved = NameAccount.parse(
      await (await t.get('/v1/profile/account/smart-vault.porthole.id?apiVersion=2')).json(),
    )
    expect(resolved.addresses[String(evmCoinType(31337))]?.address).toBe(account.address)
  })

  test("a contract the user's key controls that is not the user's wallet account registers nothing", async () => {
    // Another salt of the same factory: the key signs for it, the chain accepts the signature,
    // and it is still not the account the wallet made for the user.
    const other = await toSimpleAccount({ client: client(), owner, salt: 1n })
    const salted = await register('salted-vault.porthole.id', other.address, (message) =>
      other.signMessage({ message }),
    )
    expect(salted.status).toBe(403)
    expect(salted.body).toMatchObject({ code: 'NAME_NOT_ALLOWED' })
    // A contract of its own with ERC-1271 for the key (OwnedAccount).
    const owned = await register('owned-vault.porthole.id', contract, (message) =>
      owner.signMessage({ message }),
    )
    expect(owned.status).toBe(403)
    // A stranger's own smart account.
    const strangers = await toSimpleAccount({ client: client(), owner: stranger })
    const squat = await register('stranger-vault.porthole.id', strangers.address, (message) =>
      strangers.signMessage({ message }),
    )
    expect(squat.status).toBe(403)
    expect(squat.body).toMatchObject({
      reasons: [
        { description: "Only an account of this app's embedded wallet can register a name" },
      ],
    })
  })
})
