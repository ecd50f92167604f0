/**
 * mail_a's mailbox is the Gmail REST API at MAIL_A_API_URL, called with the being's access token:
 * `users/me/messages` lists ids, `users/me/messages/{id}?format=full` reads one, and
 * `users/me/messages/send` sends a raw RFC 2822 message. A 401 is its own error, so the caller
 * refreshes the token once and tries again. Failures name the service and its host, never a token.
 */
import type * as HtmlToText from "html-to-text"
import { lazyModule } from "../../../kernel/lazy-module.ts"
import type { MailboxQuery, MailboxRead, MailSummary, OutgoingMail } from "../integrations-capability.ts"
import { field, requestJson } from "../chat-post.ts"

/** Loaded at the first HTML read: an idle node does not hold it. */
const htmlToText = lazyModule<typeof HtmlToText>("html-to-text")

const service = "mail_a (Gmail API)"

/** The access token was refused (expired or revoked): refresh it and try once more. */
export class GmailUnauthorized extends Error {}

export interface GmailMessage {
  readonly id: string
  readonly from: string
  readonly to: string
  readonly subject: string
  /** ISO 8601, or null when the message has no usable date. */
  readonly date: string | null
  readonly unread: boolean
  readonly snippet: string
  /** The text of its first text/plain part, else of its first text/html part as text; "" when it has none. */
  readonly text: string
}

interface Part {
  readonly mimeType?: string
  readonly filename?: string
  readonly headers?: ReadonlyArray<{ readonly name?: string; readonly value?: string }>
  readonly body?: { readonly data?: string }
  readonly parts?: ReadonlyArray<Part>
}

const call = async (
  base: string,
  token: string,
  path: string,
  init: { readonly method: "GET" | "POST"; readonly json?: unknown; readonly signal?: AbortSignal | undefined }
) => {
  const answer = await requestJson(service, `${base.replace(/\/+$/, "")}/users/me/${path}`, {
    method: init.method,
    headers: { authorization: `Bearer ${token}` },
    signal: init.signal,
    ...(init.json === undefined
      ? {}
      : { body: JSON.stringify(init.json), contentType: "application/json; charset=utf-8" })
  })
  if (answer.status === 401) throw new GmailUnauthorized(`${service} refused the access token.`)
  if (answer.status >= 400) {
    const message = field(field(answer.body, "error"), "message")
    throw new Error(
      `${service} answered ${answer.status}${typeof message === "string" ? `: ${message.slice(0, 200)}` : ""}.`
    )
  }
  return answer.body
}

const text = (value: unknown) => (typeof value === "string" ? value : "")

/**
 * The ids of the newest messages matching the search (Gmail's own `q` syntax) in one label, and how many match in all
 * (Gmail's estimate).
 */
export const listMessages = async (
  base: string,
  token: string,
  query: { readonly q: string; readonly label: string | null; readonly max: number },
  signal?: AbortSignal
) => {
  const params = new URLSearchParams({ maxResults: String(query.max) })
  if (query.q !== "") params.set("q", query.q)
  if (query.label !== null) params.set("labelIds", query.label)
  const body = await call(base, token, `messages?${params}`, { method: "GET", signal })
  const listed = field(body, "messages")
  const ids = Array.isArray(listed) ? listed.map((entry) => text(field(entry, "id"))).filter((id) => id !== "") : []
  const estimate = field(body, "resultSizeEstimate")
  return { ids, total: typeof estimate === "number" && Number.isSafeInteger(estimate) ? estimate : ids.length }
}

const decodeBase64Url = (data: string) => Buffer.from(data, "base64url").toString("utf8")

const partsOf = (part: Part): ReadonlyArray<Part> =>
  part.parts === undefined || part.parts.length === 0 ? [part] : part.parts.flatMap(partsOf)

const bodyText = (payload: Part) => {
  const leaves = partsOf(payload).filter((part) => (part.filename ?? "") === "" && part.body?.data !== undefined)
  const plain = leaves.find((part) => part.mimeType === "text/plain")
  if (plain !== undefined) return decodeBase64Url(plain.body!.data!)
  const html = leaves.find((part) => part.mimeType === "text/html")
  return html === undefined
    ? ""
    : htmlToText().convert(decodeBase64Url(html.body!.data!), {
        wordwrap: false,
        selectors: [
          { selector: "img", format: "skip" },
          { selector: "a", options: { ignoreHref: true } }
        ]
      })
}

const isoDate = (value: string) => {
  const date = value === "" ? null : new Date(value)
  return date === null || Number.isNaN(date.getTime()) ? null : date.toISOString()
}

/** One message, read whole (`format=full`). */
export const getMessage = async (
  base: string,
  token: string,
  id: string,
  signal?: AbortSignal
): Promise<GmailMessage> => {
  const body = await call(base, token, `messages/${encodeURIComponent(id)}?format=full`, { method: "GET", signal })
  const payload = (field(body, "payload") ?? {}) as Part
  const header = (name: string) => text(payload.headers?.find((entry) => entry.name?.toLowerCase() === name)?.value)
  const labels = field(body, "labelIds")
  const internal = Number(text(field(body, "internalDate")))
  return {
    id,
    from: header("from"),
    to: header("to"),
    subject: header("subject"),
    date:
      isoDate(header("date")) ?? (Number.isFinite(internal) && internal > 0 ? new Date(internal).toISOString() : null),
    unread: Array.isArray(labels) && labels.includes("UNREAD"),
    snippet: text(field(body, "snippet")),
    text: bodyText(payload).replace(/\r\n/g, "\n").trim()
  }
}

/** Sends one message given whole as RFC 2822 text; answers its id. */
export const sendRaw = async (base: string, token: string, raw: Buffer, signal?: AbortSignal) => {
  const body = await call(base, token, "messages/send", {
    method: "POST",
    json: { raw: raw.toString("base64url") },
    signal
  })
  return { id: text(field(body, "id")) }
}

/** The mailbox's own address. */
export const profileAddress = async (base: string, token: string, signal?: AbortSignal) =>
  text(field(await call(base, token, "profile", { method: "GET", signal }), "emailAddress"))

/** Characters of text as a one-line preview, cut at `chars` with an ellipsis. */
export const previewOf = (value: string, chars: number) => {
  const flat = value.replace(/\s+/g, " ").trim()
  return flat.length > chars ? `${flat.slice(0, Math.max(0, chars - 1)).trimEnd()}…` : flat
}

/**
 * email.read's query answered from the Gmail API: the mailbox name is a label (INBOX by default), unseen is
 * `is:unread`.
 */
export const readGmail = async (
  base: string,
  token: string,
  query: MailboxQuery,
  signal?: AbortSignal
): Promise<MailboxRead> => {
  const listed = await listMessages(
    base,
    token,
    { q: query.unseenOnly ? "is:unread" : "", label: query.mailbox, max: query.limit },
    signal
  )
  const messages: Array<MailSummary> = []
  for (const id of listed.ids) {
    const message = await getMessage(base, token, id, signal)
    messages.push({
      id,
      uid: null,
      from: message.from,
      subject: message.subject,
      date: message.date,
      seen: !message.unread,
      snippet:
        query.snippetChars === 0
          ? ""
          : previewOf(message.text === "" ? message.snippet : message.text, query.snippetChars)
    })
  }
  return { mailbox: query.mailbox, total: listed.total, messages }
}

/**
 * One plain-text mail as RFC 2822 (nodemailer's composer: encoded headers, a charset, line lengths), sent through
 * `messages.send`.
 */
export const sendGmail = async (base: string, token: string, mail: OutgoingMail, signal?: AbortSignal) => {
  const { default: MailComposer } = await import("nodemailer/lib/mail-composer")
  const raw = await new MailComposer({ to: [...mail.to], subject: mail.subject, text: mail.text }).compile().build()
  return sendRaw(base, token, raw, signal)
}
