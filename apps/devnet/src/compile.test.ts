import { expect, test } from 'vitest'
import { testErc20Abi } from './abi/erc20.ts'
import { testErc721Abi } from './abi/erc721.ts'
import { idRegistryAbi } from './abi/idRegistry.ts'
import { portholeSimpleAccountAbi } from './abi/portholeSimpleAccount.ts'
import { portholeSimpleAccountFactoryAbi } from './abi/portholeSimpleAccountFactory.ts'
import { CONTRACTS, type ContractName, compileContracts, readArtifact } from './compile.ts'

test('the committed artifacts and ABI modules match a fresh compile', async () => {
  const compiled = await compileContracts()
  const modules: Record<ContractName, unknown> = {
    TestERC20: testErc20Abi,
    TestERC721: testErc721Abi,
    IdRegistry: idRegistryAbi,
    PortholeSimpleAccount: portholeSimpleAccountAbi,
    PortholeSimpleAccountFactory: portholeSimpleAccountFactoryAbi,
  }
  for (const name of Object.keys(CONTRACTS) as ContractName[]) {
    const committed = readArtifact(name)
    expect(committed.bytecode, `${name} bytecode drifted: npm run compile`).toBe(
      compiled[name].bytecode,
    )
    expect(committed.abi).toEqual(compiled[name].abi)
    expect(modules[name]).toEqual(compiled[name].abi)
    expect(committed.compiler).toBe(compiled[name].compiler)
  }
})
