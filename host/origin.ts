/**
 * The origin people reach the node at, for links in mail and the cookie's Secure flag:
 * PUBLIC_URL when set, else the address the node is really listening on (so PORT=0 still
 * mails working links).
 */
import * as HttpServer from "@effect/platform/HttpServer"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Settings } from "../kernel/settings.ts"

export const listeningUrl = (address: HttpServer.Address): string =>
  address._tag === "TcpAddress"
    ? `http://${address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname}:${address.port}`
    : `unix:${address.path}`

export class PublicOrigin extends Context.Tag("host/PublicOrigin")<PublicOrigin, { readonly url: string; readonly secure: boolean }>() {
  static readonly layer = Layer.effect(
    PublicOrigin,
    Effect.gen(function* () {
      const settings = yield* Settings
      const server = yield* HttpServer.HttpServer
      const url = Option.getOrElse(settings.publicUrl, () => listeningUrl(server.address)).replace(/\/+$/, "")
      return { url, secure: url.startsWith("https:") }
    })
  )
}
