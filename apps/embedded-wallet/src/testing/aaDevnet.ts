/**
 * Test support (not bundled): a real anvil with the ERC-4337 v0.7 contracts — EntryPoint at its
 * canonical address, the devnet's PortholeSimpleAccountFactory, eth-infinitism's
 * VerifyingPaymaster funded in the EntryPoint — and, at the edge where the API's RPC proxy
 * stands, a small bundler (it runs `handleOps` from a funded key) and an ERC-7677 paymaster
 * service that signs for the real VerifyingPaymaster. Chain methods go to anvil as they are.
 */
import EntryPoint from '@account-abstraction/contracts/artifacts/EntryPoint.json' with {
  type: 'json',
}
import VerifyingPaymaster from '@account-abstraction/contracts/artifacts/VerifyingPaymaster.json' with {
  type: 'json',
}
import { BaseError } from '@porthole/protocol'
import { ENTRY_POINT_07, PAYMASTER_SIGNER } from '@porthole/shared'
import {
  type Abi,
  type Address,
  concat,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  defineChain,
  encodeAbiParameters,
  encodeDeployData,
  type Hex,
  http,
  isAddressEqual,
  numberToHex,
  parseEther,
} from 'viem'
import {
  entryPoint07Abi,
  formatUserOperation,
  getUserOperationHash,
  type RpcUserOperation,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import Factory from '../../../devnet/artifacts/PortholeSimpleAccountFactory.json' with {
  type: 'json',
}
import TestERC20 from '../../../devnet/artifacts/TestERC20.json' with { type: 'json' }

/** The devnet app's anvil launcher, loaded at run time by name (an app's types stay its own). */
type Devnet = {
  startAnvil(parameters: { port: number; chainId: number; silent?: boolean }): Promise<{
    rpcUrl: string
    stop(): Promise<void>
  }>
}

/** Anvil's dev account 9: deploys the contracts and sends bundles. */
const BUNDLER_KEY = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6' as const
const STUB_SIGNATURE: Hex =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

/** A running test chain with its bundler and paymaster service. */
export type AaDevnet = {
  rpcUrl: string
  chainId: number
  factory: Address
  paymaster: Address
  /** A test ERC-20 (symbol pUSD, 6 decimals). */
  token: Address
  /** Mints `amount` base units of the test token to `to`. */
  mint(to: Address, amount: bigint): Promise<void>
  /** Sets the ETH balance of `address`. */
  setBalance(address: Address, wei: bigint): Promise<void>
  /** Reads `address`'s balance of the test token. */
  tokenBalance(address: Address): Promise<bigint>
  /** Whether the paymaster service sponsors, and the sponsor name it gives. */
  sponsorship: { on: boolean; name: string }
  /** The ERC-7677 contexts the paymaster service was given. */
  contexts: unknown[]
  /** The user operations the bundler took, by hash. */
  sent: Map<Hex, { transactionHash: Hex }>
  /** The API's RPC proxy as the wallet calls it (`Api.rpc`). */
  rpc<T>(caipNetworkId: string, method: string, params: unknown[]): Promise<T>
  stop(): Promise<void>
}

async function jsonRpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: T; error?: { code: number; message: string } }
  if (body.error) throw Object.assign(new BaseError(body.error.message), { code: body.error.code })
  return body.result as T
}

/**
 * Starts anvil on a free port with the 4337 stack, and the proxy's bundler and paymaster.
 *
 * @example
 * const devnet = await startAaDevnet()
 * await devnet.rpc('eip155:31337', 'eth_supportedEntryPoints', [])
 */
export async function startAaDevnet(chainId = 31337): Promise<AaDevnet> {
  const devnetModule = '@porthole/devnet'
  const { startAnvil } = (await import(/* @vite-ignore */ devnetModule)) as Devnet
  const anvil = await startAnvil({ port: 0, chainId, silent: true })
  const chain = defineChain({
    id: chainId,
    name: 'Test devnet',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  })
  const key = privateKeyToAccount(BUNDLER_KEY)
  const client = createPublicClient({ chain, transport: http(anvil.rpcUrl), pollingInterval: 50 })
  const wallet = createWalletClient({ chain, account: key, transport: http(anvil.rpcUrl) })
  const deploy = async (data: Hex) => {
    const hash = await wallet.sendTransaction({ data })
    const receipt = await client.waitForTransactionReceipt({ hash })
    if (!receipt.contractAddress) throw new Error('deployment failed')
    return receipt.contractAddress
  }
  const entryPoint = await deploy(EntryPoint.bytecode as Hex)
  await client.request({
    method: 'anvil_setCode' as never,
    params: [ENTRY_POINT_07, await client.getCode({ address: entryPoint })] as never,
  })
  const factory = await deploy(
    encodeDeployData({
      abi: Factory.abi,
      bytecode: Factory.bytecode as Hex,
      args: [ENTRY_POINT_07],
    }),
  )
  const paymasterAbi = VerifyingPaymaster.abi as Abi
  const paymaster = await deploy(
    encodeDeployData({
      abi: paymasterAbi,
      bytecode: VerifyingPaymaster.bytecode as Hex,
      args: [ENTRY_POINT_07, PAYMASTER_SIGNER.address],
    }),
  )
  await client.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: paymaster,
      abi: paymasterAbi,
      functionName: 'deposit',
      value: parseEther('10'),
    }),
  })

  const tokenAbi = TestERC20.abi as Abi
  const token = await deploy(
    encodeDeployData({
      abi: tokenAbi,
      bytecode: TestERC20.bytecode as Hex,
      args: ['Porthole USD', 'pUSD', 6],
    }),
  )

  const sent = new Map<Hex, { transactionHash: Hex; op: UserOperation<'0.7'> }>()
  const devnet: AaDevnet = {
    rpcUrl: anvil.rpcUrl,
    chainId,
    factory,
    paymaster,
    token,
    async mint(to, amount) {
      await client.waitForTransactionReceipt({
        hash: await wallet.writeContract({
          address: token,
          abi: tokenAbi,
          functionName: 'mint',
          args: [to, amount],
        }),
      })
    },
    async setBalance(address, wei) {
      await client.request({
        method: 'anvil_setBalance' as never,
        params: [address, numberToHex(wei)] as never,
      })
    },
    async tokenBalance(address) {
      return (await client.readContract({
        address: token,
        abi: tokenAbi,
        functionName: 'balanceOf',
        args: [address],
      })) as bigint
    },
    sponsorship: { on: true, name: 'Porthole Devnet' },
    contexts: [],
    sent,
    stop: () => anvil.stop(),
    async rpc<T>(caipNetworkId: string, method: string, params: unknown[]): Promise<T> {
      if (caipNetworkId !== `eip155:${chainId}`)
        throw Object.assign(new BaseError('Unsupported chainId'), { code: -32602 })
      const handler = handlers[method]
      return (handler ? handler(params) : jsonRpc(anvil.rpcUrl, method, params)) as Promise<T>
    },
  }

  const validity = () => {
    const now = Math.floor(Date.now() / 1000)
    return { validUntil: now + 600, validAfter: now - 60 }
  }
  const timestamps = (validUntil: number, validAfter: number) =>
    encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, validAfter])
  const PM_GAS = { verification: 150_000n, postOp: 1n }

  const handlers: Record<string, (params: unknown[]) => Promise<unknown>> = {
    async eth_supportedEntryPoints() {
      return [ENTRY_POINT_07]
    },
    async pimlico_getUserOperationGasPrice() {
      const block = await client.getBlock()
      const price = {
        maxFeePerGas: numberToHex((block.baseFeePerGas ?? 1n) * 2n + 1_000_000_000n),
        maxPriorityFeePerGas: numberToHex(1_000_000_000n),
      }
      return { slow: price, standard: price, fast: price }
    },
    async eth_estimateUserOperationGas(params) {
      const op = params[0] as RpcUserOperation<'0.7'>
      return {
        preVerificationGas: numberToHex(60_000n),
        verificationGasLimit: numberToHex(op.factory ? 600_000n : 150_000n),
        callGasLimit: numberToHex(300_000n),
        ...(op.paymaster
          ? {
              paymasterVerificationGasLimit: numberToHex(PM_GAS.verification),
              paymasterPostOpGasLimit: numberToHex(PM_GAS.postOp),
            }
          : {}),
      }
    },
    async pm_getPaymasterStubData(params) {
      devnet.contexts.push(params[3])
      if (!devnet.sponsorship.on)
        throw Object.assign(new BaseError('Sponsorship refused: the daily cap is reached'), {
          code: -32001,
        })
      const { validUntil, validAfter } = validity()
      return {
        paymaster,
        paymasterData: concat([timestamps(validUntil, validAfter), STUB_SIGNATURE]),
        paymasterVerificationGasLimit: numberToHex(PM_GAS.verification),
        paymasterPostOpGasLimit: numberToHex(PM_GAS.postOp),
        sponsor: { name: devnet.sponsorship.name },
      }
    },
    async pm_getPaymasterData(params) {
      if (!devnet.sponsorship.on)
        throw Object.assign(new BaseError('Sponsorship refused'), { code: -32001 })
      const op = formatUserOperation(params[0] as RpcUserOperation) as UserOperation<'0.7'>
      const { validUntil, validAfter } = validity()
      const hash = (await client.readContract({
        address: paymaster,
        abi: paymasterAbi,
        functionName: 'getHash',
        args: [
          toPackedUserOperation({
            ...op,
            paymaster,
            paymasterVerificationGasLimit: op.paymasterVerificationGasLimit ?? PM_GAS.verification,
            paymasterPostOpGasLimit: op.paymasterPostOpGasLimit ?? PM_GAS.postOp,
            paymasterData: '0x',
          }),
          validUntil,
          validAfter,
        ],
      })) as Hex
      const signature = await privateKeyToAccount(PAYMASTER_SIGNER.privateKey).signMessage({
        message: { raw: hash },
      })
      return { paymaster, paymasterData: concat([timestamps(validUntil, validAfter), signature]) }
    },
    async eth_sendUserOperation(params) {
      const op = formatUserOperation(params[0] as RpcUserOperation) as UserOperation<'0.7'>
      if (!isAddressEqual(params[1] as Address, ENTRY_POINT_07))
        throw Object.assign(new BaseError('Unsupported entry point'), { code: -32602 })
      const userOpHash = getUserOperationHash({
        chainId,
        entryPointAddress: ENTRY_POINT_07,
        entryPointVersion: '0.7',
        userOperation: op,
      })
      // Simulated first, as a bundler does: a refused operation never reaches the chain.
      const { request } = await client
        .simulateContract({
          account: key,
          address: ENTRY_POINT_07,
          abi: entryPoint07Abi,
          functionName: 'handleOps',
          args: [[toPackedUserOperation(op)], key.address],
        })
        .catch((error: { shortMessage?: string }) => {
          throw Object.assign(new BaseError(error.shortMessage ?? 'UserOperation reverted'), {
            code: -32500,
          })
        })
      const transactionHash = await wallet.writeContract({ ...request, gas: 5_000_000n })
      await client.waitForTransactionReceipt({ hash: transactionHash })
      sent.set(userOpHash, { transactionHash, op })
      return userOpHash
    },
    async eth_getUserOperationByHash(params) {
      const found = sent.get(params[0] as Hex)
      return found ? { transactionHash: found.transactionHash, entryPoint: ENTRY_POINT_07 } : null
    },
    async eth_getUserOperationReceipt(params) {
      const found = sent.get(params[0] as Hex)
      if (!found) return null
      const receipt = await jsonRpc<{
        logs: { address: Hex; data: Hex; topics: [Hex, ...Hex[]] }[]
      }>(anvil.rpcUrl, 'eth_getTransactionReceipt', [found.transactionHash])
      let event: { success: boolean; actualGasUsed: bigint; actualGasCost: bigint } | undefined
      for (const log of receipt.logs)
        try {
          const decoded = decodeEventLog({ abi: entryPoint07Abi, ...log })
          if (decoded.eventName === 'UserOperationEvent') event = decoded.args
        } catch {}
      if (!event) throw new Error('no UserOperationEvent')
      return {
        userOpHash: params[0],
        entryPoint: ENTRY_POINT_07,
        sender: found.op.sender,
        success: event.success,
        actualGasUsed: numberToHex(event.actualGasUsed),
        actualGasCost: numberToHex(event.actualGasCost),
        logs: receipt.logs.filter((log) => !isAddressEqual(log.address, ENTRY_POINT_07)),
        receipt,
      }
    },
  }
  return devnet
}
