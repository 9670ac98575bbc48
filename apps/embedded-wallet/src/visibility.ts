/**
 * Whether the user can really see an element: IntersectionObserver v2 (`trackVisibility`) says
 * an element is visible only when nothing covers it and no ancestor, in any frame, makes it
 * transparent, filtered or transformed — so a host page that hides the wallet frame under a decoy
 * (or behind `opacity: 0`) is noticed. Firefox and Safari lack v2: there nothing counts as
 * visible, and approvals go to a popup window instead.
 */

/** Whether this browser reports `isVisible` (IntersectionObserver v2). */
export function visibilitySupported(): boolean {
  return (
    typeof IntersectionObserverEntry !== 'undefined' &&
    'isVisible' in IntersectionObserverEntry.prototype
  )
}

/**
 * Calls `onChange` with the element's visibility whenever it changes (at most every 100 ms);
 * always `false` where IntersectionObserver v2 is missing. Returns the function that stops it.
 *
 * @example
 * const stop = observeVisibility(card, (visible) => setArmed(visible))
 */
export function observeVisibility(
  target: Element,
  onChange: (visible: boolean) => void,
): () => void {
  if (!visibilitySupported()) {
    onChange(false)
    return () => {}
  }
  const observer = new IntersectionObserver(
    (entries) => {
      const entry = entries.at(-1) as
        | (IntersectionObserverEntry & { isVisible?: boolean })
        | undefined
      onChange(Boolean(entry?.isIntersecting && entry.isVisible))
    },
    { threshold: [0, 1], trackVisibility: true, delay: 100 } as IntersectionObserverInit,
  )
  observer.observe(target)
  return () => observer.disconnect()
}
