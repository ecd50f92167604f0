/**
 * One JSON POST to a chat service's API, with a deadline and the caller's abort. Its failures are
 * sentences that name the service and its host only: the URL can hold a token (Telegram puts the
 * bot token in the path), so it never appears in an error.
 */

export const chatTimeoutMs = 15_000
/** An API answer longer than this is not a chat API's answer. */
const maxAnswerBytes = 1024 * 1024

export interface ChatAnswer {
  readonly status: number
  readonly headers: Headers
  /** The parsed JSON body, or undefined when the body was not JSON. */
  readonly body: unknown
}

export const postJson = (
  service: string,
  url: string,
  body: unknown,
  options: { readonly headers?: Readonly<Record<string, string>>; readonly signal?: AbortSignal | undefined }
): Promise<ChatAnswer> =>
  requestJson(service, url, {
    ...options,
    method: "POST",
    body: JSON.stringify(body),
    contentType: "application/json; charset=utf-8"
  })

/**
 * One request to a JSON API (a chat service, the mail provider's OAuth or REST endpoints), under the same deadline and
 * wording.
 */
export const requestJson = async (
  service: string,
  url: string,
  options: {
    readonly method: "GET" | "POST"
    readonly body?: string
    readonly contentType?: string
    readonly headers?: Readonly<Record<string, string>>
    readonly signal?: AbortSignal | undefined
  }
): Promise<ChatAnswer> => {
  const host = new URL(url).host
  const deadline = AbortSignal.timeout(chatTimeoutMs)
  const signal = options.signal === undefined ? deadline : AbortSignal.any([options.signal, deadline])
  let response: Response
  try {
    response = await fetch(url, {
      method: options.method,
      headers: {
        ...(options.contentType === undefined ? {} : { "content-type": options.contentType }),
        accept: "application/json",
        ...options.headers
      },
      ...(options.body === undefined ? {} : { body: options.body }),
      redirect: "error",
      signal
    })
  } catch (error) {
    if (deadline.aborted)
      throw new Error(`${service} at ${host} did not answer within ${chatTimeoutMs / 1000} seconds.`)
    if (options.signal?.aborted === true) throw new Error(`the call to ${service} was stopped.`)
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined
    const code = (cause as { code?: unknown } | undefined)?.code
    throw new Error(`could not reach ${service} at ${host}${typeof code === "string" ? ` (${code})` : ""}.`)
  }
  const text = await response.text()
  if (Buffer.byteLength(text) > maxAnswerBytes)
    throw new Error(`${service} at ${host} answered with more than ${maxAnswerBytes} bytes.`)
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: response.status, headers: response.headers, body: parsed }
}

/** A field of a parsed JSON object, or undefined. */
export const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined
