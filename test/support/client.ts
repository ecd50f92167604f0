/**
 * One person's browser-like client of a test node: the typed client derived from the contract
 * (`api`), over an HTTP client that keeps this person's cookies and comes from this person's own
 * address. `raw` sends what the typed client cannot (a malformed body, a wrong content type, a
 * body the contract's schema refuses before it leaves, a route outside the contract), through the
 * same cookies and address. `run`, `refused` and `attempt` turn a call into what a test asserts.
 */
import * as Cookies from "@effect/platform/Cookies"
import type * as Headers from "@effect/platform/Headers"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpMethod from "@effect/platform/HttpMethod"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { fetchHttpClient, type NodeClient, nodeClient } from "../../host/contract/client.ts"
import * as ApiErrors from "../../kernel/contract/errors.ts"
import { ApiErrorBody } from "../../kernel/contract/errors.ts"
import { PAGE_DEFAULT } from "../../kernel/contract/page.ts"

export type { NodeClient }

/** A refusal as the wire carried it: the status and the ApiError body. */
export interface Refusal {
  readonly status: number
  readonly body: ApiErrorBody
}

export type Outcome<A> = { readonly ok: true; readonly value: A } | ({ readonly ok: false } & Refusal)

export interface WireAnswer {
  readonly status: number
  readonly headers: Headers.Headers
  /** The cookies the answer set (parsed from its `Set-Cookie` lines). */
  readonly cookies: Cookies.Cookies
  /** The body read as JSON, or the text when it is not JSON. */
  readonly body: unknown
  readonly text: string
}

/** A cookie the node ended (`Max-Age=0`, a past expiry, an emptied value) leaves the jar, as in a browser. */
const isLive = (cookie: Cookies.Cookie) =>
  cookie.value !== "" &&
  !(cookie.options?.maxAge !== undefined && Duration.toMillis(cookie.options.maxAge) <= 0) &&
  !(cookie.options?.expires !== undefined && cookie.options.expires.getTime() <= Date.now())

let addressCounter = 0

export class Client {
  readonly base: string
  readonly headers: Readonly<Record<string, string>>
  readonly api: NodeClient
  private jar = Cookies.empty
  private readonly http: HttpClient.HttpClient

  /** Each client comes from its own address (test nodes trust one proxy's X-Forwarded-For) unless told otherwise. */
  constructor(base: string, headers: Record<string, string> = {}) {
    addressCounter += 1
    this.base = base
    this.headers = {
      "x-forwarded-for": `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`,
      ...headers
    }
    this.http = fetchHttpClient.pipe(
      HttpClient.mapRequest((request) => {
        const withHeaders = HttpClientRequest.setHeaders(request, { ...this.headers, ...request.headers })
        return Cookies.isEmpty(this.jar) || request.headers.cookie !== undefined
          ? withHeaders
          : HttpClientRequest.setHeader(withHeaders, "cookie", this.cookieHeader())
      }),
      HttpClient.tap((response) =>
        Effect.sync(() => {
          const merged = Cookies.merge(this.jar, response.cookies)
          this.jar = Cookies.fromIterable(Object.values(merged.cookies).filter(isLive))
        })
      )
    )
    this.api = nodeClient(this.http, base)
  }

  /** The value of one cookie this person holds. */
  cookie(name: string): string | undefined {
    return this.jar.cookies[name]?.value
  }

  /** Puts a cookie in the jar by hand (a forged or stolen one, say). */
  setCookie(name: string, value: string): void {
    this.jar = Cookies.unsafeSet(this.jar, name, value)
  }

  /** Takes every cookie `other` holds: the same browser's second tab, or a stolen session. */
  copyCookiesFrom(other: Client): void {
    this.jar = other.jar
  }

  get cookieCount(): number {
    return Object.keys(this.jar.cookies).length
  }

  /** The `Cookie` header this person's browser would send, or "" with no cookies. */
  cookieHeader(): string {
    return Cookies.toCookieHeader(this.jar)
  }

  /**
   * One request on the wire, for tests about the wire itself. An object body is sent as JSON,
   * a string as written (malformed JSON, say), both as `application/json`.
   */
  raw(
    method: HttpMethod.HttpMethod,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {}
  ): Promise<WireAnswer> {
    const request = HttpClientRequest.make(method)(this.base + path).pipe(
      body === undefined
        ? (request) => request
        : HttpClientRequest.bodyText(typeof body === "string" ? body : JSON.stringify(body), "application/json"),
      HttpClientRequest.setHeaders(headers)
    )
    return Effect.runPromise(
      Effect.gen(this, function* () {
        const response = yield* this.http.execute(request)
        const text = yield* response.text
        return {
          status: response.status,
          headers: response.headers,
          cookies: response.cookies,
          body: parseJson(text),
          text
        }
      })
    )
  }
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * The typed client decodes a refusal the contract declares, by its status, into that status's
 * ApiError class: each class's schema carries the status back.
 */
const refusalClasses = Object.values(ApiErrors).flatMap((value) =>
  typeof value === "function" && "schema" in value && Schema.isSchema(value.schema)
    ? [{ errorClass: value, status: HttpApiSchema.getStatusError(value.schema) }]
    : []
)

const decodeApiErrorBody = Schema.decodeUnknown(Schema.parseJson(ApiErrorBody))

/**
 * The refusal a call's failure carries, or a defect when it is not one (the request could not be
 * encoded, the answer did not match the contract, the node did not answer): a test bug or a
 * contract breach, never an outcome to assert on.
 */
const asRefusal = (error: unknown): Effect.Effect<Refusal> => {
  for (const { errorClass, status } of refusalClasses) {
    if (error instanceof errorClass) {
      const { error: code, message, details } = error
      return Effect.succeed({
        status,
        body: details === undefined ? { error: code, message } : { error: code, message, details }
      })
    }
  }
  if (error instanceof HttpClientError.ResponseError && error.response.status >= 400) {
    const { response } = error
    return response.text.pipe(
      Effect.flatMap(decodeApiErrorBody),
      Effect.map((body): Refusal => ({ status: response.status, body })),
      Effect.orDieWith(() => new Error(`status ${response.status} without an ApiError body`))
    )
  }
  return Effect.die(error)
}

/** Runs a call; answers its value, or rejects with the refusal in words (status and body). */
export const run = <A, E>(call: Effect.Effect<A, E>): Promise<A> =>
  Effect.runPromise(
    call.pipe(
      Effect.catchAll((error) =>
        Effect.flatMap(asRefusal(error), (refusal) =>
          Effect.die(new Error(`refused with ${refusal.status}: ${JSON.stringify(refusal.body)}`))
        )
      )
    )
  )

/** Runs a call the node must refuse; answers the refusal, or rejects if the call succeeded. */
export const refused = <A, E>(call: Effect.Effect<A, E>): Promise<Refusal> =>
  Effect.runPromise(
    call.pipe(
      Effect.flatMap((value) => Effect.die(new Error(`expected a refusal, got ${JSON.stringify(value)}`))),
      Effect.catchAll(asRefusal)
    )
  )

/** Runs a call that may go either way (a race, a limit reached part way); answers which it went. */
export const attempt = <A, E>(call: Effect.Effect<A, E>): Promise<Outcome<A>> =>
  Effect.runPromise(
    call.pipe(
      Effect.map((value): Outcome<A> => ({ ok: true, value })),
      Effect.catchAll((error) => Effect.map(asRefusal(error), (refusal): Outcome<A> => ({ ok: false, ...refusal })))
    )
  )

/** A raw answer's body read by a contract schema; throws when it does not match. */
export const bodyAs = <A, I>(schema: Schema.Schema<A, I>, answer: { readonly body: unknown }): A =>
  Schema.decodeUnknownSync(schema)(answer.body)

/** The ApiError body of a raw answer; throws when the body is not one. */
export const apiError = (answer: { readonly body: unknown }): ApiErrorBody => bodyAs(ApiErrorBody, answer)

/** The first page of a paged list at its default size (kernel/contract/page.ts): the typed client names both. */
export const firstPage = { limit: PAGE_DEFAULT, offset: 0 } as const

/** Queries every paged list refuses with 400 `invalid_request`: a page out of bounds, or not a number. */
export const badPageQueries = ["limit=0", "limit=201", "offset=-1", "limit=abc"] as const
