/**
 * `@porthole/mail`: a mail catcher for development and tests. It takes every message sent over
 * SMTP on loopback and serves them back as JSON and as an inbox page.
 */
export {
  MailCatcherPortInUseError,
  type Message,
  type MessagesFilter,
  type StartMailCatcherErrorType,
  type StartMailCatcherParameters,
  type StartMailCatcherReturnType,
  startMailCatcher,
} from './mailCatcher.ts'
