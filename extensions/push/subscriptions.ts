/**
 * A person's subscribed devices: an endpoint the node will send to (https, or http to loopback when
 * PUSH_ALLOW_LOOPBACK is set), at most PUSH_MAX_SUBSCRIPTIONS each, the same endpoint again updating its row. Owner of
 * a row is the session's being, never the body.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import { isIP } from "node:net"
import { nowIso } from "../../kernel/time.ts"
import { EndpointRefused, SubscriptionNotFound, TooManySubscriptions } from "./contract/errors.ts"
import type { SubscribeBody } from "./contract/records.ts"
import { PushKeys } from "./keys.ts"
import { PushRepository } from "./repository.ts"
import { PushSettings } from "./settings.ts"
import { fnNamed } from "../../kernel/spans.ts"

const loopbackHost = (hostname: string) => {
  const host = hostname.replace(/^\[|\]$/g, "")
  return host === "localhost" || host === "::1" || (isIP(host) === 4 && host.startsWith("127."))
}

/** Why the node will not send to `endpoint`, or null. */
export const endpointRefusal = (endpoint: string, allowLoopback: boolean): string | null => {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return "The endpoint is not a URL."
  }
  if (url.username !== "" || url.password !== "") return "The endpoint may not carry a user name or password."
  if (url.protocol === "https:") return null
  if (url.protocol === "http:" && allowLoopback && loopbackHost(url.hostname)) return null
  return allowLoopback
    ? "The endpoint must be https:, or http: to a loopback address."
    : "The endpoint must be an https: URL."
}

/** A name for a device from its browser's User-Agent: "Chrome on Android", say. */
export const deviceName = (userAgent: string | undefined): string => {
  const agent = userAgent ?? ""
  const browser = /Edg\//.test(agent)
    ? "Edge"
    : /Firefox\//.test(agent)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(agent)
        ? "Chrome"
        : /Safari\//.test(agent)
          ? "Safari"
          : null
  const system = /Android/.test(agent)
    ? "Android"
    : /iPhone|iPad/.test(agent)
      ? "iOS"
      : /Mac OS X/.test(agent)
        ? "macOS"
        : /Windows/.test(agent)
          ? "Windows"
          : /Linux/.test(agent)
            ? "Linux"
            : null
  if (browser === null) return system === null ? "A browser" : `A browser on ${system}`
  return system === null ? browser : `${browser} on ${system}`
}

export class PushSubscriptions extends Effect.Service<PushSubscriptions>()("push/PushSubscriptions", {
  effect: Effect.gen(function* () {
    const settings = yield* PushSettings
    const repository = yield* PushRepository
    const keys = yield* PushKeys

    const subscribe = fnNamed("push.subscribe")(function* (
      beingId: string,
      body: SubscribeBody,
      userAgent: string | undefined
    ) {
      yield* keys.pair
      const refusal = endpointRefusal(body.endpoint, settings.pushAllowLoopback)
      if (refusal !== null) return yield* new EndpointRefused({ message: refusal })
      const known = yield* repository.has({ beingId, endpoint: body.endpoint })
      if (Option.isNone(known) && (yield* repository.count(beingId)).n >= settings.pushMaxSubscriptions) {
        return yield* new TooManySubscriptions({
          message: `You have ${settings.pushMaxSubscriptions} devices subscribed, the most this node takes; remove one first.`,
          details: { max: settings.pushMaxSubscriptions }
        })
      }
      return yield* repository.upsert({
        id: randomBytes(12).toString("base64url"),
        beingId,
        endpoint: body.endpoint,
        p256dh: body.keys.p256dh,
        auth: body.keys.auth,
        device: body.device ?? deviceName(userAgent),
        now: yield* nowIso
      })
    })

    const remove = fnNamed("push.unsubscribe")(function* (beingId: string, id: string) {
      if (!(yield* repository.remove({ beingId, id })))
        return yield* new SubscriptionNotFound({ message: "You have no subscribed device with that id." })
    })

    return { subscribe, list: repository.list, remove, count: repository.count } as const
  })
}) {}
