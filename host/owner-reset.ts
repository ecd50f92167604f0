/**
 * `npm run owner:reset`: prints a one-time password reset link for the owner, for a node that
 * cannot mail one (no SMTP_URL) or an owner who lost the mailbox too. It is the reset mail's own
 * token (one use, one hour), issued straight into the node's SQLite file: whoever can run this
 * can read that file anyway. It works whether the node is running (WAL lets a second process
 * write) or stopped, with the same DATA_DIR and PUBLIC_URL (or HOST and PORT) as the node.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Cause from "effect/Cause"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { databaseLayer } from "../kernel/database.ts"
import { Settings } from "../kernel/settings.ts"
import { migrations } from "./migrations.ts"
import { configuredOrigin } from "../kernel/origin.ts"
import { issueMailToken, RESET_LIFETIME_MS, resetLinkOf } from "../extensions/accounts/mail-tokens.ts"
import { BeingsRepository } from "../extensions/accounts/repositories/beings.ts"
import { MailTokensRepository } from "../extensions/accounts/repositories/mail-tokens.ts"

class CannotReset extends Data.TaggedError("CannotReset")<{ readonly message: string }> {}

const ownerResetLink = Effect.gen(function* () {
  const settings = yield* Settings
  const owner = yield* Effect.flatMap(BeingsRepository, (beings) => beings.findOwner())
  if (Option.isNone(owner)) {
    return yield* new CannotReset({
      message:
        "Nobody has registered as the owner yet: start the node and register with the owner access code it prints."
    })
  }
  const { id, email } = owner.value
  const token = yield* issueMailToken(id, "reset", email, RESET_LIFETIME_MS)
  return { email, link: resetLinkOf(configuredOrigin(settings), token) }
}).pipe(Effect.provide(Layer.mergeAll(BeingsRepository.Default, MailTokensRepository.Default)))

/** Opens the database only where the node keeps one: a wrong DATA_DIR must not create an empty node. */
const program = Effect.gen(function* () {
  const settings = yield* Settings
  const file = join(settings.dataDir, "node.db")
  if (Option.isNone(settings.databaseUrl) && !existsSync(file)) {
    return yield* new CannotReset({
      message: `There is no node database at ${file}. Run this with the node's DATA_DIR.`
    })
  }
  return yield* Effect.provide(ownerResetLink, databaseLayer(migrations))
}).pipe(Effect.provide(Settings.layer))

const exit = await Effect.runPromiseExit(Effect.scoped(program))
if (Exit.isSuccess(exit)) {
  console.log(`A password reset link for the owner (${exit.value.email}); it works once, for one hour:`)
  console.log(exit.value.link)
} else {
  const failure = Cause.failureOption(exit.cause)
  const known = failure._tag === "Some" && failure.value instanceof CannotReset
  console.error(known ? failure.value.message : `No reset link: ${Cause.pretty(exit.cause)}`)
  process.exitCode = 1
}
