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
import { Settings, type SettingsShape } from "./settings.ts"

export const listeningUrl = (address: HttpServer.Address): string =>
  address._tag === "TcpAddress"
    ? `http://${address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname}:${address.port}`
    : `unix:${address.path}`

/** An address that listens on every interface is no address to open: links name loopback instead. */
const openableHost = (host: string) =>
  host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host

/**
 * The origin from the settings alone, for a command that runs beside the node rather than in it
 * (`npm run owner:reset`): PUBLIC_URL, else the configured HOST and PORT.
 */
export const configuredOrigin = (settings: Pick<SettingsShape, "publicUrl" | "host" | "port">): string =>
  Option.getOrElse(settings.publicUrl, () => `http://${openableHost(settings.host)}:${settings.port}`).replace(
    /\/+$/,
    ""
  )

export class PublicOrigin extends Context.Tag("host/PublicOrigin")<
  PublicOrigin,
  { readonly url: string; readonly secure: boolean }
>() {
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
