/**
 * Test helper: a stand-in for `PortholeSimpleAccount`'s session keys on a real anvil. It has the
 * account's `sessions(key)` getter (same outputs), a `setSession` anyone may call (so a test
 * writes any on-chain state directly), and ERC-1271 by its owner's plain EIP-191 signature.
 * Compiled with solc 0.8.37 (optimizer 200 runs, cancun):
 *
 *   contract SessionAccountStub {
 *       struct Session {
 *           address target;
 *           address recipient;
 *           uint256 spendLimit;
 *           uint256 spent;
 *           uint48 validAfter;
 *           uint48 validUntil;
 *           bool active;
 *           uint8 kind;
 *           address paymaster;
 *       }
 *
 *       address public immutable owner;
 *       mapping(address => Session) public sessions;
 *
 *       constructor(address owner_) {
 *           owner = owner_;
 *       }
 *
 *       function setSession(address key, Session calldata session) external {
 *           sessions[key] = session;
 *       }
 *
 *       function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
 *           if (signature.length != 65) return 0xffffffff;
 *           bytes32 r = bytes32(signature[0:32]);
 *           bytes32 s = bytes32(signature[32:64]);
 *           uint8 v = uint8(signature[64]);
 *           return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
 *       }
 *   }
 */
import { DEV_ACCOUNTS } from '@porthole/devnet'
import { type Address, createWalletClient, getAddress, type Hex, http, publicActions } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

const BYTECODE: Hex =
  '0x60a0604052348015600e575f5ffd5b5060405161067e38038061067e833981016040819052602b91603b565b6001600160a01b03166080526066565b5f60208284031215604a575f5ffd5b81516001600160a01b0381168114605f575f5ffd5b9392505050565b6080516105f96100855f395f8181610175015261024801526105f95ff3fe608060405234801561000f575f5ffd5b506004361061004a575f3560e01c80631626ba7e1461004e578063431a1b971461007f5780634bfd65ff1461015b5780638da5cb5b14610170575b5f5ffd5b61006161005c3660046102f4565b6101af565b6040516001600160e01b031990911681526020015b60405180910390f35b6100fd61008d366004610382565b5f602081905290815260409020805460018201546002830154600384015460048501546005909501546001600160a01b0394851695938516949293919265ffffffffffff80841693660100000000000081049091169260ff600160601b8304811693600160681b90930416911689565b604080516001600160a01b039a8b168152988a1660208a0152880196909652606087019490945265ffffffffffff9283166080870152911660a0850152151560c084015260ff1660e083015290911661010082015261012001610076565b61016e61016936600461039d565b6102cb565b005b6101977f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b039091168152602001610076565b5f604182146101c757506001600160e01b03196102c4565b5f6101d560208285876103dd565b6101de91610404565b90505f6101ef6040602086886103dd565b6101f891610404565b90505f8585604081811061020e5761020e610422565b604080515f8152602081018083528c9052939091013560f81c90830181905260608301869052608083018590529250506001600160a01b037f0000000000000000000000000000000000000000000000000000000000000000169060019060a0016020604051602081039080840390855afa15801561028f573d5f5f3e3d5ffd5b505050602060405103516001600160a01b0316146102b5576001600160e01b03196102be565b630b135d3f60e11b5b93505050505b9392505050565b6001600160a01b0382165f90815260208190526040902081906102ee8282610499565b50505050565b5f5f5f60408486031215610306575f5ffd5b83359250602084013567ffffffffffffffff811115610323575f5ffd5b8401601f81018613610333575f5ffd5b803567ffffffffffffffff811115610349575f5ffd5b86602082840101111561035a575f5ffd5b939660209190910195509293505050565b6001600160a01b038116811461037f575f5ffd5b50565b5f60208284031215610392575f5ffd5b81356102c48161036b565b5f5f8284036101408112156103b0575f5ffd5b83356103bb8161036b565b9250610120601f19820112156103cf575f5ffd5b506020830190509250929050565b5f5f858511156103eb575f5ffd5b838611156103f7575f5ffd5b5050820193919092039150565b8035602083101561041c575f19602084900360031b1b165b92915050565b634e487b7160e01b5f52603260045260245ffd5b5f813561041c8161036b565b80546001600160a01b0319166001600160a01b0392909216919091179055565b5f813565ffffffffffff8116811461041c575f5ffd5b5f8135801515811461041c575f5ffd5b5f813560ff8116811461041c575f5ffd5b81356104a48161036b565b6104ae8183610442565b505f60208301356104be8161036b565b8091506104ce8160018501610442565b50506040820135600282015560608201356003820155600481016105126104f760808501610462565b825465ffffffffffff191665ffffffffffff91909116178255565b61054b61052160a08501610462565b82546bffffffffffff000000000000191660309190911b6bffffffffffff00000000000016178255565b61057861055a60c08501610478565b82805460ff60601b191691151560601b60ff60601b16919091179055565b6105a561058760e08501610488565b82805460ff60681b191660689290921b60ff60681b16919091179055565b506105bf6105b66101008401610436565b60058301610442565b505056fea2646970667358221220bc207cc2c4f65e9d9a20a9fcd9448704770b0e2692cbb3683de0f6fc699cd16564736f6c63430008250033'

const SESSION = {
  type: 'tuple',
  name: 'session',
  components: [
    { name: 'target', type: 'address' },
    { name: 'recipient', type: 'address' },
    { name: 'spendLimit', type: 'uint256' },
    { name: 'spent', type: 'uint256' },
    { name: 'validAfter', type: 'uint48' },
    { name: 'validUntil', type: 'uint48' },
    { name: 'active', type: 'bool' },
    { name: 'kind', type: 'uint8' },
    { name: 'paymaster', type: 'address' },
  ],
} as const

const stubAbi = [
  {
    type: 'constructor',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'owner_', type: 'address' }],
  },
  {
    type: 'function',
    name: 'setSession',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'key', type: 'address' }, SESSION],
    outputs: [],
  },
] as const

/** A session key's on-chain state, as `setSession` writes it. */
export type StubSession = {
  target: Address
  recipient: Address
  spendLimit: bigint
  spent: bigint
  validAfter: number
  validUntil: number
  active: boolean
  /** `SESSION_KIND`'s number. */
  kind: number
  paymaster: Address
}

/** A deployed stub and a way to write its sessions. */
export type SessionAccountStub = {
  address: Address
  setSession(key: Address, session: StubSession): Promise<void>
}

/**
 * Deploys a stub account owned by `owner` on the anvil at `rpcUrl` (sent by a dev account).
 *
 * @example
 * const account = await deploySessionAccountStub(anvil.rpcUrl, owner.address)
 * await account.setSession(key, { ...session, active: true })
 */
export async function deploySessionAccountStub(
  rpcUrl: string,
  owner: Address,
): Promise<SessionAccountStub> {
  const client = createWalletClient({
    account: privateKeyToAccount(DEV_ACCOUNTS[0]!.privateKey),
    transport: http(rpcUrl),
  }).extend(publicActions)
  const deployed = await client.waitForTransactionReceipt({
    hash: await client.deployContract({
      chain: null,
      abi: stubAbi,
      bytecode: BYTECODE,
      args: [owner],
    }),
  })
  const address = getAddress(deployed.contractAddress as Hex)
  return {
    address,
    async setSession(key, session) {
      const hash = await client.writeContract({
        chain: null,
        address,
        abi: stubAbi,
        functionName: 'setSession',
        args: [key, session],
      })
      await client.waitForTransactionReceipt({ hash })
    },
  }
}
