import type { WalletEntry } from '../store/types.js'
import { Icon } from './Icon.js'
import { Picture } from './Images.js'

/**
 * A wallet in a list: its image, its name and a tag. The button is named by what it shows (the
 * name, then the tag), so a voice command with the visible name reaches it. `section` (Connect's
 * connector type) is written as `data-section`.
 */
export function WalletRow(props: {
  wallet: WalletEntry
  tag?: { label: string; tone?: 'accent' | 'success' } | undefined
  section?: string | undefined
  onSelect: (wallet: WalletEntry) => void
}) {
  const { wallet, tag, section, onSelect } = props
  return (
    <li>
      <button
        type="button"
        className="ph-row"
        data-wallet-id={wallet.id}
        data-section={section}
        onClick={() => onSelect(wallet)}
      >
        <Picture src={wallet.image} name={wallet.name} size={40} eager />
        <span className="ph-row-name">{wallet.name}</span>{' '}
        {tag ? (
          <span className="ph-tag" data-tone={tag.tone}>
            {tag.label}
          </span>
        ) : null}
      </button>
    </li>
  )
}

/** A navigation row (icon, label, optional badge, chevron; `section` as on {@link WalletRow}). */
export function NavRow(props: {
  icon: React.ReactNode
  label: string
  badge?: string | undefined
  section?: string | undefined
  onSelect: () => void
}) {
  return (
    <li>
      <button
        type="button"
        className="ph-row"
        data-section={props.section}
        onClick={props.onSelect}
      >
        {props.icon}
        <span className="ph-row-name">{props.label}</span>
        {props.badge ? <span className="ph-tag">{props.badge}</span> : null}
        <span className="ph-chevron">
          <Icon name="chevron" size={18} />
        </span>
      </button>
    </li>
  )
}
