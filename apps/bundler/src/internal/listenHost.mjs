// Preloaded into alto's process (`node --import`): alto's server listens on 0.0.0.0, hard-coded
// in `rpc/server.js`. This narrows that one listen call to PORTHOLE_BUNDLER_LISTEN_HOST, so the
// local bundler sits on loopback like every other service of the stack.
import net from 'node:net'

const host = process.env.PORTHOLE_BUNDLER_LISTEN_HOST
if (host) {
  const listen = net.Server.prototype.listen
  net.Server.prototype.listen = function listenOnHost(...args) {
    const [options] = args
    if (options && typeof options === 'object' && options.host === '0.0.0.0')
      args[0] = { ...options, host }
    return listen.apply(this, args)
  }
}
