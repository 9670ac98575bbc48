import * as Connection from '../actions/connection.js'
import { t } from '../i18n/en.js'
import { Icon } from './Icon.js'

/** The Disconnect row of a list (Account, UnsupportedChain). */
export function DisconnectRow() {
  return (
    <li>
      <button type="button" className="ph-row" onClick={() => Connection.disconnectFromView()}>
        <Icon name="disconnect" />
        <span className="ph-row-name">{t('disconnect')}</span>
      </button>
    </li>
  )
}
