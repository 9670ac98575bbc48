import { type ReactNode, useState } from 'react'
import { t } from '../i18n/en.js'
import { IconTile } from './Icon.js'
import { NavRow } from './WalletRow.js'

/**
 * `features.collapseWallets` (spec §9): when e-mail or social login is offered, the wallet list
 * hides behind one "Continue with a wallet" row until chosen.
 *
 * @example
 * <CollapsibleWallets collapsed={collapse}>{walletList}</CollapsibleWallets>
 */
export function CollapsibleWallets({
  collapsed,
  children,
}: {
  collapsed: boolean
  children: ReactNode
}) {
  const [expanded, setExpanded] = useState(false)
  if (!collapsed || expanded) return children
  return (
    <ul className="ph-list">
      <NavRow
        icon={<IconTile name="wallet" />}
        label={t('continueWithWallet')}
        onSelect={() => setExpanded(true)}
      />
    </ul>
  )
}
