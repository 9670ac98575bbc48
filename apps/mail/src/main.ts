/**
 * Runs the mail catcher until SIGINT/SIGTERM: `npm start -w @porthole/mail`.
 * PORTHOLE_MAIL_URL (HTTP, default http://127.0.0.1:4500) and PORTHOLE_SMTP_URL (SMTP,
 * default smtp://127.0.0.1:2525) choose the ports; both servers bind the host of the HTTP URL.
 */
import { endpoints, portOf } from '@porthole/shared'
import { startMailCatcher } from './mailCatcher.ts'

const { mail, smtp } = endpoints()
const started = performance.now()
const catcher = await startMailCatcher({
  httpPort: portOf(mail),
  smtpPort: portOf(smtp),
  host: new URL(mail).hostname.replace(/^\[|\]$/g, ''),
})
console.log(`Mail catcher: inbox and JSON API at ${catcher.httpUrl}, SMTP at ${catcher.smtpUrl}`)
console.log(`ready in ${Math.round(performance.now() - started)} ms`)

let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    if (stopping) return
    stopping = true
    catcher.close().then(
      () => process.exit(0),
      (error) => {
        console.error(error)
        process.exit(1)
      },
    )
  })
