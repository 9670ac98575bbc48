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
  '0x60a0604052348015600e575f5ffd5b506040516105e43803806105e4833981016040819052602b91603b565b6001600160a01b03166080526066565b5f60208284031215604a575f5ffd5b81516001600160a01b0381168114605f575f5ffd5b9392505050565b60805161055f6100855f395f818161013c0152610224015261055f5ff3fe608060405234801561000f575f5ffd5b506004361061004a575f3560e01c80631626ba7e1461004e578063431a1b971461007f5780638da5cb5b14610137578063e535a02314610176575b5f5ffd5b61006161005c3660046102d0565b61018b565b6040516001600160e01b031990911681526020015b60405180910390f35b6100ea61008d36600461035e565b5f60208190529081526040902080546001820154600283015460038401546004909401546001600160a01b03938416949390921692909165ffffffffffff808216916601000000000000810490911690600160601b900460ff1687565b604080516001600160a01b03988916815297909616602088015294860193909352606085019190915265ffffffffffff90811660808501521660a0830152151560c082015260e001610076565b61015e7f000000000000000000000000000000000000000000000000000000000000000081565b6040516001600160a01b039091168152602001610076565b610189610184366004610379565b6102a7565b005b5f604182146101a357506001600160e01b03196102a0565b5f6101b160208285876103b8565b6101ba916103df565b90505f6101cb6040602086886103b8565b6101d4916103df565b90505f858560408181106101ea576101ea6103fd565b604080515f8152602081018083528c9052939091013560f81c90830181905260608301869052608083018590529250506001600160a01b037f0000000000000000000000000000000000000000000000000000000000000000169060019060a0016020604051602081039080840390855afa15801561026b573d5f5f3e3d5ffd5b505050602060405103516001600160a01b031614610291576001600160e01b031961029a565b630b135d3f60e11b5b93505050505b9392505050565b6001600160a01b0382165f90815260208190526040902081906102ca8282610457565b50505050565b5f5f5f604084860312156102e2575f5ffd5b83359250602084013567ffffffffffffffff8111156102ff575f5ffd5b8401601f8101861361030f575f5ffd5b803567ffffffffffffffff811115610325575f5ffd5b866020828401011115610336575f5ffd5b939660209190910195509293505050565b6001600160a01b038116811461035b575f5ffd5b50565b5f6020828403121561036e575f5ffd5b81356102a081610347565b5f5f82840361010081121561038c575f5ffd5b833561039781610347565b925060e0601f19820112156103aa575f5ffd5b506020830190509250929050565b5f5f858511156103c6575f5ffd5b838611156103d2575f5ffd5b5050820193919092039150565b803560208310156103f7575f19602084900360031b1b165b92915050565b634e487b7160e01b5f52603260045260245ffd5b80546001600160a01b0319166001600160a01b0392909216919091179055565b5f813565ffffffffffff811681146103f7575f5ffd5b5f813580151581146103f7575f5ffd5b813561046281610347565b61046c8183610411565b50602082013561047b81610347565b6104888160018401610411565b5060408201356002820155606082013560038201556004810165ffffffffffff6104b460808501610431565b1665ffffffffffff198254161781556104cf60a08401610431565b81546bffffffffffff000000000000191660309190911b6bffffffffffff0000000000001617815561052461050660c08501610447565b82805460ff60601b191691151560601b60ff60601b16919091179055565b50505056fea26469706673582212208729eae6603f4645afdaceff845672390ba31ef704dcbb472c2d7420206a735664736f6c63430008250033'

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
