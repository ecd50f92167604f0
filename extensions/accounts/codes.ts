/**
 * Access codes: the owner's bootstrap code, codes the owner mints, and invitations that mail
 * a fresh code. A used code and the bootstrap code cannot be deleted.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { AccessCodeNotFound, BootstrapCodeKept, CodeUsed, EmailNotConfigured } from "./contract/errors.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { nowIso } from "../../kernel/time.ts"
import { Mailer } from "../mail/contract/mailer.ts"
import { PublicOrigin } from "../../kernel/origin.ts"
import { AccessCodesRepository } from "./repositories/access-codes.ts"
import { BeingsRepository } from "./repositories/beings.ts"
import { InvitesRepository } from "./repositories/invites.ts"
import { AuthSettings } from "./settings.ts"
import { newAccessCode, newId } from "./tokens.ts"
import { fnNamed, spanNamed } from "../../kernel/spans.ts"

/** Who mints the bootstrap code: the node itself, before any being exists. */
export const SYSTEM_MINTER = "system"

/**
 * What the node's start ensured (the accounts feature, before any route serves): the owner's bootstrap code while
 * nobody owns the node, none once someone does. The one place the start's banner reads it from; a fact of the start,
 * not read again (registering spends the code without changing it).
 */
export class OwnerBootstrapCode extends Context.Tag("auth/OwnerBootstrapCode")<
  OwnerBootstrapCode,
  Option.Option<string>
>() {}

export class AccessCodes extends Effect.Service<AccessCodes>()("auth/AccessCodes", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const settings = yield* AuthSettings
    const mailer = yield* Mailer
    const origin = (yield* PublicOrigin).url
    const codes = yield* AccessCodesRepository
    const beings = yield* BeingsRepository
    const invites = yield* InvitesRepository

    /**
     * Makes sure an owner can register: answers the bootstrap code while nobody owns the node
     * (the OWNER_ACCESS_CODE setting, else one generated once and kept), none afterwards.
     */
    const ensureBootstrap = sql
      .withTransaction(
        Effect.gen(function* () {
          if (Option.isSome(yield* beings.findOwner())) return Option.none<string>()
          const wanted = Option.map(settings.ownerAccessCode, Redacted.value)
          const existing = yield* codes.unusedBootstrap()
          const code = Option.getOrElse(wanted, () => existing[0]?.code ?? newAccessCode())
          if (existing.some((row) => row.code === code)) return Option.some(code)
          yield* codes.deleteUnusedBootstrap()
          yield* codes.insert({
            code,
            createdBy: SYSTEM_MINTER,
            note: "owner bootstrap code",
            isBootstrap: true,
            createdAt: yield* nowIso
          })
          return Option.some(code)
        })
      )
      .pipe(orDieOnStorageFault, spanNamed("auth.ensureBootstrap"))

    const list = codes.list

    const mint = fnNamed("auth.mintCodes")(function* (ownerId: string, count: number, note: string) {
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          const createdAt = yield* nowIso
          const minted = Array.from({ length: count }, newAccessCode)
          for (const code of minted)
            yield* codes.insert({ code, createdBy: ownerId, note, isBootstrap: false, createdAt })
          return yield* codes.listByCode(minted)
        })
      )
    }, orDieOnStorageFault)

    const remove = fnNamed("auth.deleteCode")(function* (code: string) {
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          const [state] = yield* codes.states([code])
          if (state === undefined)
            return yield* Effect.fail(new AccessCodeNotFound({ message: "There is no such access code." }))
          if (state.isBootstrap) {
            return yield* Effect.fail(
              new BootstrapCodeKept({ message: "The owner's bootstrap code cannot be deleted." })
            )
          }
          if (state.usedBy !== null) {
            return yield* Effect.fail(
              new CodeUsed({
                message: "This code has been used; it stays as a record of who joined with it."
              })
            )
          }
          yield* codes.remove(code)
        })
      )
    }, orDieOnStorageFault)

    const listInvites = invites.list

    /** Mints a code and mails it; the invite row records whether the mail left. */
    const invite = fnNamed("auth.invite")(function* (ownerId: string, email: string, note: string) {
      if (!mailer.configured) {
        return yield* Effect.fail(
          new EmailNotConfigured({ message: "This node cannot send mail: set SMTP_URL first." })
        )
      }
      const [code] = yield* mint(ownerId, 1, note === "" ? `invite for ${email}` : note)
      const id = newId()
      yield* invites.insert({ id, email, note, code: code.code, createdBy: ownerId, createdAt: yield* nowIso })
      const result = yield* Effect.either(
        mailer.send({
          to: email,
          subject: "You are invited to a personal node",
          text: [
            "You have been invited to join a personal node.",
            note === "" ? "" : `Note from the owner: ${note}`,
            `Your access code: ${code.code}`,
            `Register at ${origin}/register?code=${encodeURIComponent(code.code)}`
          ]
            .filter((line) => line !== "")
            .join("\n\n")
        })
      )
      yield* invites.recordDelivery({
        id,
        sent: result._tag === "Right",
        error: result._tag === "Left" ? result.left.message : null
      })
      // The row was written just above: its absence is the node's fault.
      return yield* Effect.flatMap(invites.findById(id), Effect.orDie)
    })

    return { ensureBootstrap, list, mint, remove, invite, listInvites } as const
  }),
  // Mail and the public origin are edges the builder provides: the node its live ones, a test its own.
  dependencies: [AccessCodesRepository.Default, BeingsRepository.Default, InvitesRepository.Default]
}) {}
