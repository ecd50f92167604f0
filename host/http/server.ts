/**
 * The node's HttpServer: the contract's HttpApp served on the node's own http.Server, each
 * request run in a plain fiber forked from the server's runtime.
 *
 * Why not `NodeHttpServer.layer`: its per-request pipeline (`HttpApp.toHandled`: a tracer
 * middleware, an uninterruptible region, the response awaited until Node flushed it) measured
 * ~100 µs of CPU per request on top of a bare node:http handler running the same work in a fiber
 * (docs/benchmarks.md, "Issue 9"), about as much as the rest of a signed-in request. What this
 * server keeps is what a request needs: the platform's request object (so every route, the
 * policy and the multipart reader work as before), a request Scope, the pre-response handlers
 * (the session cookie is set by one), the platform's mapping of an unhandled cause to a response,
 * every body kind written as NodeHttpServer writes it, and the fiber interrupted when the client
 * goes away first. No HTTP server span here: with tracing on, a request's span is request-metrics.ts's.
 *
 * WebSocket handshakes never come here: host/live/server.ts routes every 'upgrade' itself.
 */
import * as Cookies from "@effect/platform/Cookies"
import * as Etag from "@effect/platform/Etag"
import * as FileSystem from "@effect/platform/FileSystem"
import * as HttpApp from "@effect/platform/HttpApp"
import type * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpPlatform from "@effect/platform/HttpPlatform"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Path from "@effect/platform/Path"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type * as Cause from "effect/Cause"
import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from "node:http"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import type { ReadableStream as NodeReadableStream } from "node:stream/web"
import { isSelfSending } from "../../kernel/http/self-sending-body.ts"

type Listener = (incoming: IncomingMessage, outgoing: ServerResponse) => void

type RequestClass = new (source: IncomingMessage, response: ServerResponse) => HttpServerRequest.HttpServerRequest

/**
 * The platform's server request class for node:http (@effect/platform-node 0.108, internal
 * `ServerRequestImpl`, constructor `(source, response, …)`). It is not exported, and writing our
 * own would mean re-implementing the body readers and multipart that routes rely on; so it is
 * taken from the one request the exported `makeHandler` builds, once, for a stand-in request
 * whose response counts as already written (the platform then writes nothing).
 */
const platformRequestClass = Effect.gen(function* () {
  const found = yield* Deferred.make<RequestClass>()
  const handler = yield* NodeHttpServer.makeHandler(
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      Effect.as(Deferred.succeed(found, request.constructor as RequestClass), HttpServerResponse.empty())
    )
  )
  // The platform's tracer reads the host header and the socket of the stand-in too.
  const standIn = { url: "/", method: "GET", headers: { host: "localhost" }, socket: {} } as IncomingMessage
  handler(standIn, { writableEnded: true, on: () => {} } as unknown as ServerResponse)
  return yield* Deferred.await(found).pipe(
    Effect.timeoutFail({
      duration: "5 seconds",
      onTimeout: () => new Error("the platform's request class was not found")
    }),
    Effect.orDie
  )
  // The platform's handler makes a server span for the stand-in; it is no request anyone made.
}).pipe(Effect.withTracerEnabled(false))

/** Status, headers and cookies as NodeHttpServer writes them: cookies become `set-cookie` lines. */
const headersOf = (response: HttpServerResponse.HttpServerResponse): OutgoingHttpHeaders => {
  if (Cookies.isEmpty(response.cookies)) return response.headers
  const cookies: Array<string> = Cookies.toSetCookieHeaders(response.cookies)
  const headers: OutgoingHttpHeaders = { ...response.headers }
  if (headers["set-cookie"] !== undefined) cookies.push(headers["set-cookie"] as string)
  headers["set-cookie"] = cookies
  return headers
}

/** A body that failed half-way: a 500 if nothing went out yet, and the answer ended either way. */
const failed = (outgoing: ServerResponse) => () =>
  Effect.sync(() => {
    if (!outgoing.headersSent) outgoing.writeHead(500)
    if (!outgoing.writableEnded) outgoing.end()
  })

/** Writes the answer. Whole bodies are handed to Node and not awaited; streamed ones are. */
const write = (
  request: HttpServerRequest.HttpServerRequest,
  outgoing: ServerResponse,
  response: HttpServerResponse.HttpServerResponse
): Effect.Effect<void> => {
  const body = response.body
  const unsent = body._tag === "Raw" && isSelfSending(body.body) ? Effect.promise(body.body.discard) : Effect.void
  if (outgoing.writableEnded || outgoing.destroyed) return unsent
  const headers = headersOf(response)
  if (request.method === "HEAD" || body._tag === "Empty") {
    outgoing.writeHead(response.status, headers).end()
    return unsent
  }
  switch (body._tag) {
    case "Uint8Array":
      outgoing.writeHead(response.status, headers).end(body.body)
      return Effect.void
    case "Raw": {
      outgoing.writeHead(response.status, headers)
      const raw = body.body as { pipe?: unknown }
      if (isSelfSending(raw)) {
        return Effect.tryPromise((signal) => raw.sendTo(outgoing, signal)).pipe(Effect.catchAll(failed(outgoing)))
      }
      if (typeof raw === "object" && raw !== null && typeof raw.pipe === "function") {
        // A file's read stream: the request scope stays open until it is sent.
        return Effect.tryPromise((signal) => pipeline(raw as Readable, outgoing, { signal, end: true })).pipe(
          Effect.catchAll(failed(outgoing))
        )
      }
      outgoing.end(body.body as string | Uint8Array)
      return Effect.void
    }
    case "FormData": {
      const web = new Response(body.formData)
      outgoing.writeHead(response.status, { ...headers, ...Object.fromEntries(web.headers) })
      return Effect.tryPromise((signal) =>
        pipeline(Readable.fromWeb(web.body! as NodeReadableStream, { signal }), outgoing)
      ).pipe(Effect.catchAll(failed(outgoing)))
    }
    case "Stream": {
      outgoing.writeHead(response.status, headers)
      // Written chunk by chunk, waiting for 'drain' when Node's buffer is full, as NodeHttpServer does.
      const drained = Effect.unsafeMakeLatch()
      outgoing.on("drain", () => drained.unsafeOpen())
      return body.stream.pipe(
        Stream.orDie,
        Stream.runForEachChunk((chunk) => {
          let full = false
          for (const bytes of Chunk.toReadonlyArray(chunk)) full = !outgoing.write(bytes)
          if (!full) return Effect.void
          drained.unsafeClose()
          return drained.await
        }),
        Effect.matchCauseEffect({ onSuccess: () => Effect.sync(() => outgoing.end()), onFailure: failed(outgoing) })
      )
    }
  }
}

/** The response after the handlers the app registered (`HttpApp.appendPreResponseHandler`). */
const preResponse = (request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse) =>
  Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse>((fiber) => {
    const handler = fiber.getFiberRef(HttpApp.currentPreResponseHandlers)
    return handler._tag === "None" ? Effect.succeed(response) : Effect.orDie(handler.value(request, response))
  })

/** An unhandled failure or defect as the platform answers it (a 500, or the error's own response). */
const orCauseResponse = <E>(cause: Cause.Cause<E>) =>
  Effect.map(HttpServerError.causeResponse(cause), ([response]) => response)

/** What answers once the app is stopped: the node is shutting down. */
const stopped: Listener = (_incoming, outgoing) => {
  outgoing.writeHead(503, { connection: "close", "content-length": "0" }).end()
}

/** The services a request's fiber is given beside its request and Scope: the platform's, which serving a file reads. */
const platformServices = Context.pick(HttpPlatform.HttpPlatform, Etag.Generator, FileSystem.FileSystem, Path.Path)

/**
 * A node:http request listener serving `app` in a fiber of `runtime`'s per request.
 *
 * The fiber starts from the platform's few services, not from the runtime's whole context (about 115 services): Effect's
 * Context is an immutable map, and every service added on a request's way (the request and its Scope here, the route
 * by the router, the session by its middleware, each contract handler merging its group's context in) copied all of
 * it, 5–12 µs a copy, several a request. Nothing on that way may read the node's services from the fiber: the router's
 * routes are typed to need only what it provides (a raw route captures what it uses when it is built), and a contract
 * handler runs in its group's own context.
 */
const requestListener = (
  app: HttpApp.Default<unknown>,
  runtime: Runtime.Runtime<never>,
  ServerRequest: RequestClass
): Listener => {
  const runFork = Runtime.runFork(runtime)
  const platform = platformServices(runtime.context as Context.Context<unknown>).unsafeMap
  return (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const request = new ServerRequest(incoming, outgoing)
    const served = app.pipe(
      Effect.catchAllCause(orCauseResponse),
      Effect.flatMap((response) => preResponse(request, response)),
      Effect.catchAllCause(orCauseResponse),
      Effect.flatMap((response) => write(request, outgoing, response))
    )
    // The request's Scope (a multipart upload's temporary files) closes once the answer is written.
    const fiber = runFork(
      Effect.flatMap(Scope.make(), (scope) =>
        served.pipe(
          Effect.mapInputContext((_: Context.Context<never>) =>
            Context.unsafeMake<unknown>(
              new Map(platform).set(HttpServerRequest.HttpServerRequest.key, request).set(Scope.Scope.key, scope)
            )
          ),
          Effect.onExit((exit) => Scope.close(scope, exit))
        )
      )
    )
    outgoing.on("close", () => {
      if (!outgoing.writableEnded) fiber.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId)
    })
  }
}

/** Listens on `server` and serves what `HttpServer.serve` hands it; closing the layer closes the server. */
const make = (server: Server, options: { readonly port: number; readonly host: string }) =>
  Effect.gen(function* () {
    yield* Effect.acquireRelease(
      Effect.async<void, HttpServerError.ServeError>((resume) => {
        const onError = (cause: Error) => resume(Effect.fail(new HttpServerError.ServeError({ cause })))
        server.once("error", onError)
        server.listen(options, () => {
          server.off("error", onError)
          resume(Effect.void)
        })
      }),
      () =>
        Effect.async<void>((resume) => {
          if (!server.listening) return resume(Effect.void)
          server.close((error) => resume(error === undefined ? Effect.void : Effect.die(error)))
        })
    )
    // The node listens before its services are built (so they know its address); a request that
    // arrives meanwhile waits here for the app instead of reaching no listener and hanging.
    // Once the app is stopped, a late request is told so rather than held open (which would keep
    // the server from closing).
    let serving: Listener | null = null
    const waiting: Array<Parameters<Listener>> = []
    server.on("request", (incoming, outgoing) => {
      if (serving !== null) serving(incoming, outgoing)
      else waiting.push([incoming, outgoing])
    })
    const address = server.address()
    const ServerRequest = yield* platformRequestClass
    return HttpServer.make({
      address:
        typeof address === "string" || address === null
          ? { _tag: "UnixAddress", path: String(address) }
          : {
              _tag: "TcpAddress",
              hostname: address.address === "::" ? "0.0.0.0" : address.address,
              port: address.port
            },
      serve: (app, middleware?: HttpMiddleware.HttpMiddleware) =>
        Effect.gen(function* () {
          const listener = requestListener(
            middleware === undefined ? app : middleware(app),
            yield* Effect.runtime<never>(),
            ServerRequest
          )
          serving = listener
          for (const [incoming, outgoing] of waiting.splice(0)) listener(incoming, outgoing)
          yield* Effect.addFinalizer(() =>
            Effect.sync(() => {
              serving = stopped
            })
          )
        })
    })
  })

/**
 * The HttpServer on `server`, with the platform's Node services the routes use (files,
 * multipart's FileSystem and Path, ETags), as `NodeHttpServer.layer` provides them.
 */
export const nodeHttpServerLayer = (server: Server, options: { readonly port: number; readonly host: string }) =>
  Layer.mergeAll(Layer.scoped(HttpServer.HttpServer, make(server, options)), NodeHttpServer.layerContext)
