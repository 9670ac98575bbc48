import type { WalletEntry } from '../store/types.js'
import { Icon } from './Icon.js'
import { Picture } from './Images.js'

/**
 * A wallet in a list: its image, its name and a tag. The button is named by what it shows (the
 * name, then the tag), so a voice command with the visible name reaches it.
 */
export function WalletRow(props: {
  wallet: WalletEntry
  tag?: { label: string; tone?: 'accent' | 'success' } | undefined
  onSelect: (wallet: WalletEntry) => void
}) {
  const { wallet, tag, onSelect } = props
  return (
    <li>
      <button
        type="button"
        className="ph-row"
        data-wallet-id={wallet.id}
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

/** A navigation row (icon, label, optional badge, chevron). */
export function NavRow(props: {
  icon: React.ReactNode
  label: string
  badge?: string | undefined
  onSelect: () => void
}) {
  return (
    <li>
      <button type="button" className="ph-row" onClick={props.onSelect}>
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
