/**
 * A view loaded on demand that can be fetched ahead of time, without `React.lazy`: a lazy
 * component suspends even when its chunk is already in memory, and React holds a revealed
 * Suspense boundary back for 300 ms, which a view that must show within moments cannot afford.
 */
import { type ComponentType, useEffect, useState } from 'react'
import { t } from '../i18n/en.js'

/** What {@link lazyView} returns. */
export type LazyView<P> = {
  /** Renders the view, or a spinner until its chunk has loaded. */
  View: ComponentType<P>
  /** Starts loading the chunk (once); resolves with the component. */
  preload(): Promise<ComponentType<P>>
}

/**
 * Wraps a dynamic import of a view.
 *
 * @example
 * const QrView = lazyView(async () => (await import('./views/Qr.js')).Qr)
 * QrView.preload() // while the user looks at the previous view
 * <QrView.View uri={uri} />
 */
export function lazyView<P extends object>(load: () => Promise<ComponentType<P>>): LazyView<P> {
  let loaded: ComponentType<P> | undefined
  let loading: Promise<ComponentType<P>> | undefined
  const preload = () => {
    loading ??= load().then((component) => {
      loaded = component
      return component
    })
    loading.catch(() => {
      loading = undefined // a later visit tries again
    })
    return loading
  }
  function View(props: P) {
    const [, setReady] = useState(false)
    useEffect(() => {
      if (!loaded)
        void preload().then(
          () => setReady(true),
          () => {},
        )
    }, [])
    const Loaded = loaded
    return Loaded ? (
      <Loaded {...props} />
    ) : (
      <span className="ph-spinner" role="status" aria-label={t('loading')} />
    )
  }
  return { View, preload }
}
