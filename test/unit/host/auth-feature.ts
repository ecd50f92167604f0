/**
 * The auth feature on its own, for unit tests: its services over an in-memory SQLite with only
 * its own tables, the recording Mailer, a fixed public origin, no HTTP and no other feature.
 */
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { Accounts } from "../../../extensions/accounts/accounts.ts"
import { AccessCodes } from "../../../extensions/accounts/codes.ts"
import { MailFlows } from "../../../extensions/accounts/mail-flows.ts"
import { accountMigrations } from "../../../extensions/accounts/migrations.ts"
import { Sessions } from "../../../extensions/accounts/sessions.ts"
import { MailerTest } from "../../../extensions/mail/mailer.ts"
import { PublicOrigin } from "../../../kernel/origin.ts"
import { nodeSettingsLayer } from "../../../host/settings.ts"
import { databaseLayer } from "../../../kernel/database.ts"

export const OWNER_CODE = "OWNR-TEST-CODE"
export const ORIGIN = "http://node.test"

const edges = Layer.mergeAll(
  databaseLayer(accountMigrations, { filename: ":memory:" }),
  MailerTest,
  Layer.succeed(PublicOrigin, { url: ORIGIN, secure: false })
).pipe(Layer.provideMerge(nodeSettingsLayer({ ownerAccessCode: Option.some(Redacted.make(OWNER_CODE)) })))

/** A fresh auth feature: each test that provides it gets an empty database. */
export const authFeature = Layer.mergeAll(
  Accounts.Default,
  AccessCodes.Default,
  MailFlows.Default,
  Sessions.Default
).pipe(Layer.provideMerge(edges))
