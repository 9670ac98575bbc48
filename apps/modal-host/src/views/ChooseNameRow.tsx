import { identityOf } from '../actions/identity.js'
import * as Modal from '../actions/modal.js'
import { Icon } from '../components/Icon.js'
import { t } from '../i18n/en.js'
import { canRegisterName } from '../rules/nameRegistration.js'
import { useModal } from '../store/store.js'
import { RegisterAccountNameView } from './lazyNameViews.js'

/**
 * Account's "Choose a name" row (spec §6: name registration needs the auth connector and an
 * address; names are EVM only): shown to an embedded account on an EVM network once its
 * identity is known to have no name.
 */
export function ChooseNameRow() {
  const offered = useModal((s) => {
    const { address, caipNetworkId } = s.connection
    if (!canRegisterName({ authUser: s.authUser, address, caipNetworkId })) return false
    const identity = identityOf(s, address)
    return identity !== undefined && identity.name === null
  })
  if (!offered) return null
  return (
    <li>
      <button
        type="button"
        className="ph-row"
        data-testid="choose-name"
        onClick={() => Modal.push({ view: 'RegisterAccountName' })}
        onPointerEnter={() => void RegisterAccountNameView.preload().catch(() => {})}
      >
        <Icon name="at" />
        <span className="ph-row-name">{t('chooseName')}</span>
      </button>
    </li>
  )
}
