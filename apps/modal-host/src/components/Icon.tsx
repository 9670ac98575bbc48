/** Inline icons (no icon font, nothing fetched). */
const paths = {
  close: 'M6 6l12 12M18 6L6 18',
  back: 'M15 5l-7 7 7 7',
  chevron: 'M9 5l7 7-7 7',
  help: 'M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14m0 3h.01M12 21a9 9 0 1 1 0-18 9 9 0 0 1 0 18z',
  search: 'M11 18a7 7 0 1 1 0-14 7 7 0 0 1 0 14zm5-2l4 4',
  copy: 'M9 9h10v10H9zM5 15V5h10',
  check: 'M5 12l5 5 9-10',
  external: 'M14 5h5v5M19 5l-8 8M17 14v5H5V7h5',
  disconnect: 'M15 12H4m0 0l4-4m-4 4l4 4M13 5h5a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1h-5',
  warning:
    'M12 9v4m0 4h.01M10.3 4.2L2.6 18a2 2 0 0 0 1.7 3h15.4a2 2 0 0 0 1.7-3L13.7 4.2a2 2 0 0 0-3.4 0z',
  network:
    'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm-9-9h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z',
  mail: 'M4 6h16v12H4zm0 0l8 7 8-7',
  shield: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z',
  key: 'M14 10a4 4 0 1 0-3.4 3.95L9 15.5V18H6.5v2.5H4V18l6.05-6.05M16 8h.01',
  wallet: 'M4 7h14a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H4zm0 0V6a2 2 0 0 1 2-2h9M16 13h.01',
  qr: 'M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h2v2h-2zM18 18h2v2h-2zM14 18h2M18 14h2',
  send: 'M4 12l16-8-6 16-2-7zM12 13l8-9',
  swap: 'M7 4v15m0 0l-3-3m3 3l3-3M17 20V5m0 0l-3 3m3-3l3 3',
  card: 'M3 6h18v12H3zM3 10h18M7 15h3',
  at: 'M16 12a4 4 0 1 1-8 0 4 4 0 0 1 8 0zm0 0v1.5a2.5 2.5 0 0 0 5 0V12a9 9 0 1 0-3.5 7.1',
} as const

/** An icon name. */
export type IconName = keyof typeof paths

/**
 * A 24×24 stroke icon, hidden from screen readers (its button carries the name). Arrows that say
 * "back" and "forward" are mirrored in a right-to-left layout (`ph-flip`).
 */
export function Icon({ name, size = 20 }: { name: IconName; size?: number }) {
  return (
    <svg
      className={name === 'back' || name === 'chevron' ? 'ph-flip' : undefined}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={paths[name]} />
    </svg>
  )
}

/**
 * An icon on a 40 px tile, as list rows show one where a wallet has its logo (WalletConnect,
 * All Wallets, "Continue with a wallet").
 *
 * @example
 * <IconTile name="qr" />
 */
export function IconTile({ name, muted = false }: { name: IconName; muted?: boolean }) {
  return (
    <span
      className="ph-monogram"
      style={{
        width: 40,
        height: 40,
        background: 'var(--ph-color-surface-hover)',
        color: muted ? 'var(--ph-color-fg-muted)' : 'var(--ph-accent)',
      }}
    >
      <Icon name={name} />
    </span>
  )
}
