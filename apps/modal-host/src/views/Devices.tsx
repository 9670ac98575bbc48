/**
 * The embedded wallet's devices in the Account view: a notice of each device that recovered the
 * wallet, or signed in with another Farcaster custody address, since this device last showed
 * them; the list of devices with where and when each joined, and Remove (the wallet frame signs
 * the removal with the wallet's key: the device is signed out and gets the wallet no more).
 */
import type { WalletDevice } from '@porthole/protocol'
import { useCallback, useEffect, useState } from 'react'
import * as Modal from '../actions/modal.js'
import { Icon } from '../components/Icon.js'
import { td } from '../i18n/devices.js'
import { locale } from '../i18n/en.js'
import './accountTabs.css'
import './devices.css'

/** "2 minutes ago", "3 hours ago", "yesterday", in the chosen locale. */
function ago(time: number): string {
  const seconds = (time - Date.now()) / 1000
  const format = new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' })
  if (seconds > -3600) return format.format(Math.min(0, Math.round(seconds / 60)), 'minute')
  if (seconds > -172_800) return format.format(Math.round(seconds / 3600), 'hour')
  return format.format(Math.round(seconds / 86_400), 'day')
}

const siteOf = (device: WalletDevice) => device.site ?? td('unknownSite')

/** The notice of one new device. */
function notice(device: WalletDevice): string {
  const values = { device: device.label, site: siteOf(device), when: ago(device.createdAt) }
  return device.kind === 'custody-refused'
    ? td('noticeCustody', { ...values, custody: device.custody ?? '?' })
    : td('noticeRecovered', values)
}

/**
 * The devices section. `load` and `remove` come from the Account view (its wallet frame
 * requests), so this chunk shares no module with the first download.
 */
export function Devices({
  load,
  remove,
}: {
  /** The wallet frame's `getDevices`; `seen` marks the notices shown on this device. */
  load: (seen: boolean) => Promise<{ devices: WalletDevice[] }>
  /** The wallet frame's `removeDevice`. */
  remove: (id: string) => Promise<unknown>
}) {
  const [list, setList] = useState<WalletDevice[] | null>(null)
  const [failed, setFailed] = useState(false)
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState<string | null>(null)
  const refresh = useCallback(
    (seen: boolean) =>
      load(seen).then(
        (answer) => {
          setList(answer.devices)
          setFailed(false)
        },
        () => setFailed(true),
      ),
    [load],
  )
  useEffect(() => {
    void refresh(false)
  }, [refresh])
  const review = () => {
    setOpen(true)
    void refresh(true)
  }
  const onRemove = async (id: string) => {
    setBusy(id)
    try {
      await remove(id)
      Modal.showToast(td('removed'), 'success')
      await refresh(false)
    } catch (error) {
      Modal.showToast((error as Error).message, 'error')
    } finally {
      setBusy(null)
    }
  }
  const fresh = list?.filter((device) => device.isNew) ?? []
  return (
    <section aria-label={td('title')} data-testid="devices">
      {fresh.length && !open ? (
        <div className="ph-device-notice" role="alert" data-testid="device-notice">
          {fresh.map((device) => (
            <p key={device.id}>{notice(device)}</p>
          ))}
          <p>{td('noticeNotYou')}</p>
          <button type="button" className="ph-button" data-variant="secondary" onClick={review}>
            {td('review')}
          </button>
        </div>
      ) : null}
      <ul className="ph-list">
        <li>
          <button
            type="button"
            className="ph-row"
            aria-expanded={open}
            onClick={() => (open ? setOpen(false) : review())}
          >
            <Icon name="shield" />
            <span className="ph-row-name">{td('title')}</span>
          </button>
        </li>
      </ul>
      {open && failed ? <p className="ph-muted">{td('loadFailed')}</p> : null}
      {open && list ? (
        <>
          <ul className="ph-list" aria-label={td('title')}>
            {list.map((device) => (
              <li key={device.id} className="ph-row ph-static" data-new={device.isNew || undefined}>
                <span className="ph-row-name ph-stack">
                  <span>{device.label}</span>
                  <span className="ph-muted">
                    {`${siteOf(device)} · ${td('added', { when: ago(device.createdAt) })}`}
                  </span>
                  {device.current ? <span className="ph-muted">{td('thisDevice')}</span> : null}
                  {device.kind === 'recovered' ? (
                    <span className="ph-muted">{td('recovered')}</span>
                  ) : device.kind === 'custody-refused' ? (
                    <span className="ph-muted">
                      {td('custodyRefused', { custody: device.custody ?? '?' })}
                    </span>
                  ) : null}
                </span>
                {device.current ? null : (
                  <button
                    type="button"
                    className="ph-link-button"
                    disabled={busy !== null}
                    aria-label={td('removeFor', { device: device.label, site: siteOf(device) })}
                    onClick={() => void onRemove(device.id)}
                  >
                    {busy === device.id ? td('removing') : td('remove')}
                  </button>
                )}
              </li>
            ))}
          </ul>
          <p className="ph-muted ph-devices-hint">{td('removeHint')}</p>
        </>
      ) : null}
    </section>
  )
}
