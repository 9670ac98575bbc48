/**
 * Why the modal frame did not load: the modal server's `/frame-check` answer for the frame's
 * URL (an unknown project, an origin not allowed…), else a network error. Only asked when the
 * handshake failed, so it lives in sdk-chains.js.
 */

/**
 * The reason to show for a frame that never completed its handshake.
 *
 * @example
 * const reason = await frameCheck(new URL('https://modal.example/frame-check?projectId=p'))
 */
export async function frameCheck(url: URL): Promise<string> {
  const answer = await fetch(url)
    .then((response) => response.json())
    .catch(() => ({}))
  return (answer as { reason?: string }).reason || 'Network Error - Could not load the modal'
}
