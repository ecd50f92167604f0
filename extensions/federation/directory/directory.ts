/**
 * This node as a directory (FEDERATION_DIRECTORY; docs/federation.md "The directory"). Any node
 * may register: the registration is signed by the node's own key and addressed to this
 * directory, so nobody lists handles under a did whose key it does not hold, and a registration
 * meant for another directory is refused. A handle is first come, first served while its entry
 * runs; a node's new registration replaces its old handles. A did's first registration listing a
 * handle is granted DIRECTORY_REGISTRATION_CREDITS, once, stated in the signed receipt. A resolve answers a record this
 * directory signs, so the resolver checks it against the did it pinned.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { nowMillis } from "../../../kernel/time.ts"
import type { RegistrationAnswer, RegistrationRefusal, Resolution, SignedRegistration } from "../contract/directory.ts"
import type { Did } from "../contract/wire.ts"
import { Identities } from "../identities.ts"
import { DirectoryRepository } from "../repositories/directory-repository.ts"
import { FederationSettings } from "../settings.ts"
import { digestOf, signPayload, verifiedBy } from "../wire/signed.ts"
import { fnNamed } from "../../../kernel/spans.ts"

/** How long a registration lists a node; the node renews well before (directory/client.ts). */
export const REGISTRATION_MS = 24 * 60 * 60 * 1000
/** A registration is fresh this long either side of this node's clock. */
const FRESH_MS = 5 * 60 * 1000

const isHttpUrl = (url: string) => URL.canParse(url) && ["http:", "https:"].includes(new URL(url).protocol)

export class Directory extends Effect.Service<Directory>()("federation/Directory", {
  dependencies: [DirectoryRepository.Default, Identities.Default],
  effect: Effect.gen(function* () {
    const entries = yield* DirectoryRepository
    const identities = yield* Identities
    const settings = yield* FederationSettings
    const self = identities.node
    const isoAt = (ms: number) => new Date(ms).toISOString()
    const refuse = (code: RegistrationRefusal, reason: string): RegistrationAnswer => ({
      accepted: false,
      code,
      reason,
      receipt: null
    })

    const register = fnNamed("federation.directoryRegister")(function* (registration: SignedRegistration) {
      if (!settings.directoryOn) return refuse("not_directory", "This node is not a directory.")
      const { payload } = registration
      if (payload.aud !== self.did)
        return refuse("wrong_audience", "This registration is addressed to another directory.")
      if (!verifiedBy(registration, payload.did))
        return refuse("bad_signature", "The registration is not signed by the key of its did.")
      const now = yield* nowMillis
      const issued = Date.parse(payload.issuedAt)
      if (!Number.isFinite(issued) || Math.abs(issued - now) > FRESH_MS)
        return refuse("stale", "The registration was not issued within five minutes of this directory's clock.")
      if (!isHttpUrl(payload.endpoint)) return refuse("bad_endpoint", "The endpoint is not an http or https URL.")
      const handles = [...new Set(payload.handles.map((handle) => handle.toLowerCase()))]
      const expiresAt = isoAt(now + REGISTRATION_MS)
      // The credit goes to a node's first registration that lists a handle: a node with an owner, whose wallet it lands
      // in.
      const credits = handles.length > 0 ? settings.directoryRegistrationCredits : 0
      const outcome = yield* entries.register({
        did: payload.did,
        endpoint: payload.endpoint,
        handles,
        at: isoAt(now),
        expiresAt,
        credits
      })
      if (outcome.taken.length > 0)
        return refuse("handle_taken", `Another node lists ${outcome.taken.join(", ")} here.`)
      const receipt = signPayload(
        {
          v: 1 as const,
          type: "svc.directory.receipt" as const,
          did: self.did as Did,
          aud: payload.did,
          about: digestOf(registration),
          handles,
          credits: outcome.granted,
          expiresAt,
          issuedAt: isoAt(now)
        },
        self.secretKey
      )
      return { accepted: true, code: null, reason: "Listed.", receipt } satisfies RegistrationAnswer
    })

    const resolve = fnNamed("federation.directoryResolve")(function* (handle: string) {
      const none = (reason: string): Resolution => ({ found: false, reason, entry: null })
      if (!settings.directoryOn) return none("This node is not a directory.")
      const now = yield* nowMillis
      const found = yield* entries.findEntry({ handle: handle.trim().toLowerCase(), at: isoAt(now) })
      if (Option.isNone(found)) return none("No node lists that handle here.")
      const entry = signPayload(
        {
          v: 1 as const,
          type: "svc.directory.entry" as const,
          did: self.did as Did,
          handle: found.value.handle,
          node: found.value.did as Did,
          endpoint: found.value.endpoint,
          expiresAt: found.value.expiresAt,
          issuedAt: isoAt(now)
        },
        self.secretKey
      )
      return { found: true, reason: "Found.", entry } satisfies Resolution
    })

    return { register, resolve } as const
  })
}) {}
