/**
 * The example page: plain wagmi hooks. Nothing here knows Porthole except the "Open Porthole"
 * button, which shows the modal's Account view through the connector's instance.
 */
import type { PortholeProperties } from '@porthole/wagmi'
import { useState } from 'react'
import { type BaseError, parseEther } from 'viem'
import {
  useChains,
  useConnect,
  useConnection,
  useConnectors,
  useDisconnect,
  useSendTransaction,
  useSignMessage,
  useSwitchChain,
  useWaitForTransactionReceipt,
} from 'wagmi'

/** An error as one line: viem's and wagmi's short message, else the message. */
const describe = (error: Error | null) =>
  error ? ((error as BaseError).shortMessage ?? error.message) : null

export function App() {
  const { address, chainId, status, connector } = useConnection()
  const connectors = useConnectors()
  const connect = useConnect()
  const disconnect = useDisconnect()
  const chains = useChains()
  const switchChain = useSwitchChain()
  const sign = useSignMessage()
  const send = useSendTransaction()
  const receipt = useWaitForTransactionReceipt({ hash: send.data })
  const [message, setMessage] = useState('Hello from wagmi through Porthole')
  const [to, setTo] = useState('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
  const [amount, setAmount] = useState('0.01')
  const connected = status === 'connected'
  const porthole = connectors.find((c) => c.id === 'porthole') as
    | ((typeof connectors)[number] & PortholeProperties)
    | undefined

  return (
    <main>
      <header>
        <h1>Porthole + wagmi</h1>
        <p>
          A wagmi app whose only connector is <code>porthole()</code> from{' '}
          <code>@porthole/wagmi</code>.
        </p>
      </header>

      <section aria-labelledby="connection">
        <h2 id="connection">Connection</h2>
        <div className="row">
          {porthole && !connected && (
            <button type="button" onClick={() => connect.mutate({ connector: porthole })}>
              Connect with {porthole.name}
            </button>
          )}
          {connected && porthole && connector?.id === porthole.id && (
            <button type="button" onClick={() => void porthole.getPorthole().open()}>
              Open Porthole
            </button>
          )}
          {connected && (
            <button type="button" onClick={() => disconnect.mutate()}>
              Disconnect
            </button>
          )}
        </div>
        <dl>
          <dt>Status</dt>
          <dd id="status">{status}</dd>
          <dt>Address</dt>
          <dd id="address">{address ?? '—'}</dd>
          <dt>Chain</dt>
          <dd id="chain">{chainId ?? '—'}</dd>
          <dt>Connector</dt>
          <dd id="connector">{connector?.name ?? '—'}</dd>
        </dl>
        {connect.error && (
          <output id="connect-error" className="error">
            {describe(connect.error)}
          </output>
        )}
      </section>

      <section aria-labelledby="network">
        <h2 id="network">Network</h2>
        <div className="row">
          {chains.map((chain) => (
            <button
              key={chain.id}
              type="button"
              disabled={!connected || chain.id === chainId}
              onClick={() => switchChain.mutate({ chainId: chain.id })}
            >
              {chain.name} ({chain.id})
            </button>
          ))}
        </div>
        {switchChain.error && (
          <output id="switch-error" className="error">
            {describe(switchChain.error)}
          </output>
        )}
      </section>

      <section aria-labelledby="sign">
        <h2 id="sign">Sign a message</h2>
        <div className="row">
          <input
            aria-label="Message"
            value={message}
            onChange={(event) => setMessage(event.target.value)}
          />
          <button
            type="button"
            disabled={!connected || sign.isPending}
            onClick={() => sign.mutate({ message })}
          >
            Sign
          </button>
        </div>
        <output id="signature" className={sign.error ? 'error' : undefined}>
          {sign.data ?? describe(sign.error)}
        </output>
      </section>

      <section aria-labelledby="send">
        <h2 id="send">Send a transaction</h2>
        <div className="row">
          <input aria-label="Receiver" value={to} onChange={(event) => setTo(event.target.value)} />
          <input
            aria-label="Amount in ETH"
            value={amount}
            size={6}
            onChange={(event) => setAmount(event.target.value)}
          />
          <button
            type="button"
            disabled={!connected || send.isPending}
            onClick={() => send.mutate({ to: to as `0x${string}`, value: parseEther(amount) })}
          >
            Send
          </button>
        </div>
        <output id="tx" className={send.error ? 'error' : undefined}>
          {send.data ?? describe(send.error)}
        </output>
        {send.data && (
          <output id="receipt">
            {receipt.data
              ? `${receipt.data.status} in block ${receipt.data.blockNumber}`
              : 'pending'}
          </output>
        )}
      </section>
    </main>
  )
}
