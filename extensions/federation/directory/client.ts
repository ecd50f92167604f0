/**
 * This node registered with a directory (DIRECTORY_ENDPOINT; no route sets it). The directory
 * loop registers when the node is not listed or less than six hours of the listing are left
 * (after a failure, five minutes on), on the node's Clock. The directory's did is learnt from its
 * signed capability profile and pinned at the first registration that held (its receipt, signed
 * by that did about this registration, proves the key); afterwards a different did at the same
 * URL is refused, and `lastError` says why. A resolve is answered only under the pinned did.
 * Credits a directory grants in its receipt are credited to the owner's wallet once in the node's
 * life (DirectoryCredits), whatever directory or renewal answers later.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { nowMillis } from "../../../kernel/time.ts"
import { RegistrationAnswer, Resolution, type SignedRegistration } from "../contract/directory.ts"
import { PeerTransport } from "../contract/ports.ts"
import type { DirectoryStatus } from "../contract/records.ts"
import type { Did } from "../contract/wire.ts"
import { everyThirtySeconds } from "../courier.ts"
import { NodeDocuments } from "../documents.ts"
import { Identities } from "../identities.ts"
import { DirectoryRepository, type StoredDirectoryState } from "../repositories/directory-repository.ts"
import { FederationSettings } from "../settings.ts"
import { pinnedProfile } from "../pinned-profile.ts"
import { digestOf, signPayload, verifiedBy } from "../wire/signed.ts"
import { fnNamed } from "../../../kernel/spans.ts"

export const DIRECTORY_PATHS = {
  capabilities: "/api/federation/capabilities",
  register: "/api/federation/directory/register",
  resolve: "/api/federation/directory/resolve"
} as const

/** Renew when less than this is left of the listing (a directory lists for a day). */
const RENEW_BEFORE_MS = 6 * 60 * 60 * 1000
const RETRY_MS = 5 * 60 * 1000

/** The handles this node lists (the host binds it: the owner's own handle; docs/federation.md "The directory"). */
export class ListedHandles extends Context.Tag("federation/ListedHandles")<
  ListedHandles,
  { readonly handles: Effect.Effect<ReadonlyArray<string>> }
>() {}

/**
 * Where a directory's registration credits land: the owner's wallet, through the market's ledger
 * (the host binds it). Runs inside the client's transaction; false when the node has no owner yet.
 */
export class DirectoryCredits extends Context.Tag("federation/DirectoryCredits")<
  DirectoryCredits,
  {
    readonly credit: (amount: number) => Effect.Effect<boolean>
  }
>() {}

const decodeAnswer = Schema.decodeUnknownOption(RegistrationAnswer)
const decodeResolution = Schema.decodeUnknownOption(Resolution)

/** A handle resolved under the pinned did: the node and where it says it is. */
export type Resolved = { readonly node: string; readonly endpoint: string } | { readonly refused: string }

export class DirectoryClient extends Effect.Service<DirectoryClient>()("federation/DirectoryClient", {
  dependencies: [DirectoryRepository.Default, NodeDocuments.Default, Identities.Default],
  effect: Effect.gen(function* () {
    const stored = yield* DirectoryRepository
    const documents = yield* NodeDocuments
    const identities = yield* Identities
    const transport = yield* PeerTransport
    const listed = yield* ListedHandles
    const credits = yield* DirectoryCredits
    const sql = yield* SqlClient.SqlClient
    const settings = yield* FederationSettings
    const endpoint = Option.getOrNull(settings.directoryEndpoint)
    const oneAtATime = yield* Effect.makeSemaphore(1)
    let registerAgainAt = 0

    /** The stored row as it holds for the configured endpoint: a pin made for another URL does not carry over. */
    const current = Effect.map(
      stored.state(),
      (row): StoredDirectoryState =>
        row.endpoint === endpoint
          ? row
          : {
              ...row,
              endpoint,
              directoryDid: null,
              advertisedEndpoint: null,
              handles: null,
              registeredAt: null,
              expiresAt: null,
              lastError: null
            }
    )
    const listedAt = (row: StoredDirectoryState, now: number) =>
      row.directoryDid !== null && row.expiresAt !== null && Date.parse(row.expiresAt) > now

    const status = fnNamed("federation.directoryStatus")(function* () {
      const row = yield* current
      return {
        configured: endpoint !== null,
        endpoint,
        directoryDid: row.directoryDid,
        nodeDid: documents.nodeDid,
        registered: listedAt(row, yield* nowMillis),
        advertisedEndpoint: row.advertisedEndpoint,
        handles: row.handles ?? [],
        registeredAt: row.registeredAt,
        expiresAt: row.expiresAt,
        lastError: row.lastError,
        creditsClaimed: row.creditsClaimed
      } satisfies DirectoryStatus
    })

    const registerNow = Effect.gen(function* () {
      const row = yield* current
      if (endpoint === null) return row
      const fail = (reason: string) =>
        Effect.as(stored.save({ ...row, lastError: reason }), { ...row, lastError: reason })
      const learnt = yield* pinnedProfile(transport, endpoint, DIRECTORY_PATHS.capabilities, {
        what: "directory",
        pinned: row.directoryDid,
        whenMoved: "pinned at the first registration; nothing was sent to it."
      })
      if ("refused" in learnt) return yield* fail(learnt.refused)
      const directoryDid = learnt.profile.payload.did
      const descriptor = yield* documents.descriptor
      const handles = (yield* listed.handles).map((handle) => handle.toLowerCase())
      const now = yield* nowMillis
      const registration: SignedRegistration = signPayload(
        {
          v: 1 as const,
          type: "svc.directory.registration" as const,
          did: documents.nodeDid as Did,
          aud: directoryDid,
          endpoint: descriptor.payload.endpoint,
          handles,
          issuedAt: new Date(now).toISOString()
        },
        identities.node.secretKey
      )
      const answer = yield* Effect.either(transport.post(endpoint, DIRECTORY_PATHS.register, registration))
      if (answer._tag === "Left") return yield* fail(`The directory did not answer: ${answer.left.reason}`)
      const decoded = decodeAnswer(answer.right.json)
      if (answer.right.status !== 200 || Option.isNone(decoded))
        return yield* fail(`The directory answered HTTP ${answer.right.status}, not a registration answer.`)
      const { receipt, ...outcome } = decoded.value
      if (!outcome.accepted || receipt === null)
        return yield* fail(`The directory did not list this node: ${outcome.reason.slice(0, 200)}`)
      const proved =
        receipt.payload.did === directoryDid &&
        verifiedBy(receipt, directoryDid) &&
        receipt.payload.aud === documents.nodeDid &&
        receipt.payload.about === digestOf(registration)
      if (!proved) return yield* fail("The directory's receipt does not prove it holds the key of its did.")
      const saved: StoredDirectoryState = {
        ...row,
        endpoint,
        directoryDid: directoryDid,
        advertisedEndpoint: registration.payload.endpoint,
        handles: receipt.payload.handles,
        registeredAt: new Date(now).toISOString(),
        expiresAt: receipt.payload.expiresAt,
        lastError: null
      }
      // A grant is claimed once in the node's life: the ledger's entry and creditsClaimed in one transaction.
      const granted = receipt.payload.credits
      if (granted === 0 || row.creditsClaimed > 0) {
        yield* stored.save(saved)
        return saved
      }
      return yield* sql
        .withTransaction(
          Effect.gen(function* () {
            const credited = yield* credits.credit(granted)
            if (!credited)
              yield* Effect.logWarning("The directory granted credits, but this node has no owner to credit them to")
            const claimed = credited ? { ...saved, creditsClaimed: granted } : saved
            yield* stored.save(claimed)
            return claimed
          })
        )
        .pipe(Effect.orDie)
    })

    /** Registers now (the owner's "register"; a flush), whatever is left of the listing. */
    const register = fnNamed("federation.directoryRegisterNow")(() => oneAtATime.withPermits(1)(registerNow))

    /** One pass of the directory loop: register or renew when due. */
    const run = fnNamed("federation.directory")(() =>
      oneAtATime.withPermits(1)(
        Effect.gen(function* () {
          if (endpoint === null) return false
          const now = yield* nowMillis
          const row = yield* current
          const handles = yield* listed.handles
          const changed =
            JSON.stringify(row.handles ?? []) !== JSON.stringify(handles.map((handle) => handle.toLowerCase()))
          const due = !listedAt(row, now) || Date.parse(row.expiresAt!) - now < RENEW_BEFORE_MS || changed
          if (!due || now < registerAgainAt) return false
          const after = yield* registerNow
          registerAgainAt = after.lastError === null ? 0 : now + RETRY_MS
          return after.lastError === null
        })
      )
    )

    /** A handle at this node's directory, its signed entry checked under the pinned did. */
    const resolve = fnNamed("federation.directoryResolveHandle")(function* (handle: string) {
      const row = yield* current
      if (endpoint === null) return { refused: "No directory is set (DIRECTORY_ENDPOINT)." } satisfies Resolved
      if (row.directoryDid === null)
        return {
          refused: "This node has not registered with its directory yet, so its did is not pinned."
        } satisfies Resolved
      const answer = yield* Effect.either(transport.post(endpoint, DIRECTORY_PATHS.resolve, { handle }))
      if (answer._tag === "Left")
        return { refused: `The directory did not answer: ${answer.left.reason}` } satisfies Resolved
      const decoded = decodeResolution(answer.right.json)
      if (answer.right.status !== 200 || Option.isNone(decoded))
        return { refused: "The directory did not answer with a resolution." } satisfies Resolved
      const { entry, found, reason } = decoded.value
      if (!found || entry === null) return { refused: reason.slice(0, 200) } satisfies Resolved
      const holds =
        entry.payload.did === row.directoryDid &&
        verifiedBy(entry, row.directoryDid) &&
        entry.payload.handle === handle.trim().toLowerCase() &&
        Date.parse(entry.payload.expiresAt) > (yield* nowMillis)
      if (!holds)
        return {
          refused: "The directory's entry is not signed by its pinned did, or is for another handle."
        } satisfies Resolved
      return { node: entry.payload.node, endpoint: entry.payload.endpoint } satisfies Resolved
    })

    return { status, register, run, resolve } as const
  })
}) {}

/** The directory loop on its own, every 30 seconds on the node's Clock (nothing to do without DIRECTORY_ENDPOINT). */
export const DirectoryLoop = Layer.scopedDiscard(
  Effect.flatMap(DirectoryClient, (client) =>
    everyThirtySeconds("directory loop", "federation.directory", client.run())
  )
)
