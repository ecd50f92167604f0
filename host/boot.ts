/**
 * What a person needs at start: the URL the node listens at and, until someone has
 * registered as owner, the owner access code (printed at every start until it is spent).
 */
import * as HttpServer from "@effect/platform/HttpServer"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { OwnerBootstrapCode } from "../extensions/accounts/codes.ts"
import { listeningUrl } from "../kernel/origin.ts"

export interface BootInfoShape {
  readonly url: string
  readonly ownerCode: Option.Option<string>
}

export class BootInfo extends Context.Tag("host/BootInfo")<BootInfo, BootInfoShape>() {}

export const bootInfoLayer = Layer.effect(
  BootInfo,
  Effect.gen(function* () {
    const server = yield* HttpServer.HttpServer
    // Read, not ensured again: the accounts feature ensured it before the routes came up.
    const ownerCode = yield* OwnerBootstrapCode
    return { url: listeningUrl(server.address), ownerCode }
  })
)

export const listeningLine = (url: string): string => `The node is listening at ${url}`

export const ownerCodeLines = (info: BootInfoShape): ReadonlyArray<string> =>
  Option.match(info.ownerCode, {
    onNone: () => [],
    onSome: (code) => [
      `Owner access code: ${code}`,
      `Register as the owner at ${info.url}/register?code=${encodeURIComponent(code)}`
    ]
  })
