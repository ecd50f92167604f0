/**
 * Anchor: `GET /api/auth/me` on the smallest Effect HttpApi app that does the node's work — one
 * group, one endpoint with the node's success schema, a cookie-security middleware that
 * provides the session, NodeHttpServer, the platform's defaults (tracing on) — with the
 * database read by better-sqlite3 directly, as the other anchors do. Set beside the node it
 * splits the node's cost in two: what the HttpApi stack costs (this anchor against Fastify)
 * and what the node adds on top (the node against this anchor).
 * Run as its own process by test/bench/run.ts: `node effect-me.ts --db <node.db> --port <n>`.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { createServer } from "node:http"
import { anchorArgs, openMeWork, securityHeaders, type SessionRow } from "./me-work.ts"

const { db, port } = anchorArgs()
const work = openMeWork(db)

class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "Unauthorized",
  { error: Schema.String, message: Schema.String },
  HttpApiSchema.annotations({ status: 401 })
) {}

class CurrentSession extends Context.Tag("bench/CurrentSession")<CurrentSession, SessionRow>() {}

class Authentication extends HttpApiMiddleware.Tag<Authentication>()("bench/Authentication", {
  failure: Unauthorized,
  provides: CurrentSession,
  security: { cookie: HttpApiSecurity.apiKey({ key: "svc_session", in: "cookie" }) }
}) {}

const Being = Schema.Struct({
  id: Schema.String,
  handle: Schema.String,
  displayName: Schema.String,
  email: Schema.String,
  isOwner: Schema.Boolean,
  emailVerified: Schema.Boolean,
  suspended: Schema.Boolean,
  createdAt: Schema.String
})

class AuthApi extends HttpApiGroup.make("auth")
  .add(HttpApiEndpoint.get("me", "/auth/me").addSuccess(Schema.Struct({ being: Being })))
  .middleware(Authentication)
  .prefix("/api") {}

class HealthApi extends HttpApiGroup.make("health")
  .add(HttpApiEndpoint.get("health", "/health").addSuccess(Schema.Struct({ ok: Schema.Boolean })))
  .prefix("/api") {}

class Api extends HttpApi.make("bench").add(AuthApi).add(HealthApi) {}

const unauthorized = new Unauthorized({ error: "unauthorized", message: "Sign in first: this needs a session." })

const AuthenticationLive = Layer.succeed(Authentication, {
  cookie: (value) => {
    const session = work.sessionOf(Redacted.value(value))
    return session === null ? Effect.fail(unauthorized) : Effect.succeed(session)
  }
})

const AuthLive = HttpApiBuilder.group(Api, "auth", (handlers) =>
  handlers.handle("me", () => Effect.map(CurrentSession, (session) => ({ being: session.being })))
)

const HealthLive = HttpApiBuilder.group(Api, "health", (handlers) =>
  handlers.handle("health", () => Effect.sync(() => JSON.parse(work.health()) as { ok: boolean }))
)

/** The node's security headers, set on node:http's response before the platform answers. */
const server = () =>
  createServer().on("request", (_request, response) => {
    for (const [name, value] of Object.entries(securityHeaders)) response.setHeader(name, value)
  })

const ApiLive = HttpApiBuilder.api(Api).pipe(Layer.provide([AuthLive, HealthLive]), Layer.provide(AuthenticationLive))

/** Said once the app serves: the bench sends its first request when it reads this line. */
const listening = Layer.effectDiscard(Effect.sync(() => console.log(`listening at http://127.0.0.1:${port}`)))

const main = listening.pipe(
  Layer.provide(HttpApiBuilder.serve().pipe(Layer.provide(ApiLive))),
  Layer.provide(NodeHttpServer.layer(server, { port, host: "127.0.0.1" }))
)

NodeRuntime.runMain(Layer.launch(main))
