/**
 * Porthole admin CLI: `npm run admin -- project create|allow|deny|trust|untrust|list|recovery|feature|sponsorship|domain …`
 * (see `USAGE`).
 * Exit code 0 on success, 1 with a message on stderr otherwise.
 */
import { runAdmin } from './runAdmin.js'

process.exitCode = await runAdmin(process.argv.slice(2), {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  ...(process.env.PORTHOLE_DATABASE_URL ? { databaseUrl: process.env.PORTHOLE_DATABASE_URL } : {}),
})
