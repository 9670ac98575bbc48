import { Icon } from '../components/Icon.js'
import { t } from '../i18n/en.js'

/**
 * ApproveTransaction: the embedded wallet's own frame shows what is signed, over this view;
 * the modal only says where to look.
 */
export function ApproveTransaction() {
  return (
    <div className="ph-center">
      <span className="ph-loader">
        <Icon name="shield" size={40} />
      </span>
      <p className="ph-muted">{t('reviewInWallet')}</p>
    </div>
  )
}
