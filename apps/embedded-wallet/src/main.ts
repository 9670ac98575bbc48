/**
 * The embedded-wallet frame (placeholder for this issue): it runs on its own origin, accepts
 * the handshake only from the modal origin, and answers the first messages. Keys, sign-in and
 * signing arrive with the embedded-wallet issue.
 */
import {
  Child,
  fromContract,
  type ModalToWallet,
  ModalToWalletSchema,
  UnauthorizedError,
  type WalletToModal,
} from '@porthole/protocol'
import { DEFAULT_ENDPOINTS } from '@porthole/shared'

function modalOrigin(): string {
  try {
    const content = document.querySelector('meta[name="porthole-config"]')?.getAttribute('content')
    if (content && content !== '__PORTHOLE_CONFIG__')
      return new URL(JSON.parse(content).modalUrl).origin
  } catch {}
  return DEFAULT_ENDPOINTS.modal
}

const projectId = new URL(location.href).searchParams.get('projectId') ?? ''

Child.listen<WalletToModal, ModalToWallet>({
  parentOrigin: modalOrigin(),
  validator: fromContract(ModalToWalletSchema),
  accept: (hello) => {
    if (!hello.projectId || hello.projectId !== projectId)
      throw new UnauthorizedError('Invalid Project ID')
  },
  handlers: {
    isConnected: () => ({ isConnected: false }),
    getChainId: () => ({ chainId: 'eip155:1' }),
  },
  onChannel: (channel) => channel.emit('ready', {}),
})
