/**
 * The name views, loaded on demand (not in the modal's first download); fetched ahead of time
 * when the Account view offers a name.
 */
import { lazyView } from '../components/lazyView.js'

const names = () => import('./RegisterAccountName.js')

/** RegisterAccountName: choose a name and register it. */
export const RegisterAccountNameView = lazyView(async () => (await names()).RegisterAccountName)
/** RegisterAccountNameSuccess: the name is registered. */
export const RegisterAccountNameSuccessView = lazyView(
  async () => (await names()).RegisterAccountNameSuccess,
)
