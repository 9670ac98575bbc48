import * as Modal from '../actions/modal.js'
import * as Network from '../actions/network.js'
import { Icon } from '../components/Icon.js'
import { NetworkImage } from '../components/Images.js'
import { t } from '../i18n/en.js'
import { useModal } from '../store/store.js'

/** A list of the configured networks; choosing one switches by the spec's rules. */
export function NetworkList({ exclude }: { exclude?: string | null }) {
  const networks = useModal((s) => s.config.networks)
  const activeId = useModal((s) => s.activeNetworkId)
  const enabled = useModal((s) => s.config.enableNetworkSwitch)
  return (
    <ul className="ph-list" data-roving>
      {networks
        .filter((n) => n.caipNetworkId !== exclude)
        .map((network) => (
          <li key={network.caipNetworkId}>
            <button
              type="button"
              className="ph-row"
              aria-current={network.caipNetworkId === activeId ? 'true' : undefined}
              data-network-id={network.caipNetworkId}
              disabled={!enabled}
              onClick={async () => {
                try {
                  await Network.switchNetwork(network.caipNetworkId)
                } catch (e) {
                  // The SwitchNetwork view is gone by now (a failed switch goes back one view):
                  // say what happened in a toast.
                  const code = (e as { code?: number }).code
                  Modal.showToast(code === 4001 ? t('switchRejected') : t('switchFailed'), 'error')
                  Modal.shake()
                }
              }}
            >
              <NetworkImage network={network} size={32} />
              <span className="ph-row-name">{network.name}</span>
              {network.caipNetworkId === activeId ? (
                <span className="ph-tag" data-tone="success">
                  <Icon name="check" size={12} />
                </span>
              ) : null}
            </button>
          </li>
        ))}
    </ul>
  )
}

/** Networks: the configured networks, the active one marked. */
export function Networks() {
  return <NetworkList />
}
