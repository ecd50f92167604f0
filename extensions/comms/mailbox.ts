/**
 * Reading a mailbox over IMAP with imapflow (loaded on first use, like nodemailer): the most
 * recent messages of one folder, newest first, each with its sender, subject, date and the start
 * of its text. The folder is opened read-only (EXAMINE), so reading marks nothing as seen. Errors
 * are turned into plain sentences that never repeat the URL (it holds the password).
 */
import type * as HtmlToText from "html-to-text"
import { lazyModule } from "../../kernel/lazy-module.ts"
import type { MessageAddressObject, MessageStructureObject as Structure } from "imapflow"
import type { MailSummary, MailboxQuery, MailboxRead } from "./integrations-capability.ts"

/** Loaded at the first HTML read: an idle node does not hold it. */
const htmlToText = lazyModule<typeof HtmlToText>("html-to-text")

interface ImapErrorLike {
  readonly code?: string
  readonly authenticationFailed?: boolean
  readonly serverResponseCode?: string
  readonly responseText?: string
  readonly message?: string
}

/** The first inline text/plain part, else the first inline text/html one; attachments are skipped. */
const textPart = (node: Structure | undefined): { readonly part: string; readonly html: boolean } | null => {
  const parts: Array<Structure> = []
  const walk = (at: Structure) => {
    if (at.childNodes !== undefined && at.childNodes.length > 0) at.childNodes.forEach(walk)
    else if (at.disposition !== "attachment") parts.push(at)
  }
  if (node !== undefined) walk(node)
  const plain = parts.find((part) => part.type === "text/plain")
  const html = parts.find((part) => part.type === "text/html")
  const chosen = plain ?? html
  // A single-part message has no part number: its body is part 1.
  return chosen === undefined ? null : { part: chosen.part ?? "1", html: chosen === html && plain === undefined }
}

const address = (list: ReadonlyArray<MessageAddressObject> | undefined) =>
  (list ?? [])
    .map((entry) => (entry.name ? `${entry.name} <${entry.address ?? ""}>` : (entry.address ?? "")))
    .join(", ")

const isoDate = (value: Date | string | undefined) => {
  const date = value === undefined ? null : new Date(value)
  return date === null || Number.isNaN(date.getTime()) ? null : date.toISOString()
}

const readStream = async (stream: AsyncIterable<Buffer | string>) => {
  const chunks: Array<Buffer> = []
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks).toString("utf8")
}

const snippetOf = (text: string, html: boolean, chars: number) => {
  const plain = html
    ? htmlToText().convert(text, {
        wordwrap: false,
        selectors: [
          { selector: "img", format: "skip" },
          { selector: "a", options: { ignoreHref: true } }
        ]
      })
    : text
  const flat = plain.replace(/\s+/g, " ").trim()
  return flat.length > chars ? `${flat.slice(0, Math.max(0, chars - 1)).trimEnd()}…` : flat
}

/** What went wrong, in words fit for the caller: never the URL, never the password. */
export const imapFailure = (error: unknown, where: string, mailbox: string): string => {
  const failure = (typeof error === "object" && error !== null ? error : {}) as ImapErrorLike
  if (failure.authenticationFailed === true || failure.serverResponseCode === "AUTHENTICATIONFAILED") {
    return `the IMAP server at ${where} refused the login (check the user and password of IMAP_URL).`
  }
  if (
    failure.serverResponseCode === "NONEXISTENT" ||
    /doesn't exist|does not exist|unknown mailbox/i.test(failure.responseText ?? "")
  ) {
    return `there is no mailbox "${mailbox}" on the IMAP server.`
  }
  if (failure.code !== undefined && /^(E[A-Z]+|CONNECT_TIMEOUT|ETIMEOUT|NoConnection)$/.test(failure.code)) {
    return `could not reach the IMAP server at ${where} (${failure.code}).`
  }
  return `the IMAP server at ${where} failed: ${failure.responseText ?? failure.message ?? "no reason given"}.`
}

/** Reads the mailbox of one IMAP URL (checked by the caller: imap:// or imaps://user:pass@host[:port]). */
export const readMailbox = async (url: string, query: MailboxQuery, signal?: AbortSignal): Promise<MailboxRead> => {
  const parsed = new URL(url)
  const secure = parsed.protocol === "imaps:"
  const port = parsed.port === "" ? (secure ? 993 : 143) : Number(parsed.port)
  const where = `${parsed.hostname}:${port}`
  const { ImapFlow } = await import("imapflow")
  const client = new ImapFlow({
    host: parsed.hostname,
    port,
    secure,
    auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: 15_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    // Envelopes and structures of 50 messages are small, and bodies come in capped chunks: a larger answer is a broken
    // or hostile server.
    maxLiteralSize: 16 * 1024 * 1024,
    maxResponseSize: 32 * 1024 * 1024
  })
  // The client's own errors arrive as rejections of the command in flight; this keeps a late one from crashing the
  // node.
  client.on("error", () => {})
  const abort = () => client.close()
  signal?.addEventListener("abort", abort, { once: true })
  try {
    await client.connect()
    const lock = await client.getMailboxLock(query.mailbox, { readOnly: true })
    try {
      const total = client.mailbox === false ? 0 : client.mailbox.exists
      const found =
        total === 0 ? [] : await client.search(query.unseenOnly ? { seen: false } : { all: true }, { uid: true })
      const uids = (found === false || found === undefined ? [] : [...found])
        .sort((a, b) => b - a)
        .slice(0, query.limit)
      const fetched =
        uids.length === 0
          ? []
          : await client.fetchAll(
              uids.join(","),
              { uid: true, envelope: true, flags: true, bodyStructure: true, internalDate: true },
              { uid: true }
            )
      const messages: Array<MailSummary> = []
      for (const message of [...fetched].sort((a, b) => b.uid - a.uid)) {
        const text = query.snippetChars === 0 ? null : textPart(message.bodyStructure)
        const body =
          text === null
            ? null
            : await client.download(String(message.uid), text.part, {
                uid: true,
                maxBytes: query.snippetChars * 8 + 1024
              })
        messages.push({
          id: String(message.uid),
          uid: message.uid,
          from: address(message.envelope?.from),
          subject: message.envelope?.subject ?? "",
          date: isoDate(message.envelope?.date) ?? isoDate(message.internalDate),
          seen: message.flags?.has("\\Seen") ?? false,
          snippet:
            body?.content === undefined || text === null
              ? ""
              : snippetOf(await readStream(body.content), text.html, query.snippetChars)
        })
      }
      return { mailbox: query.mailbox, total, messages }
    } finally {
      lock.release()
    }
  } catch (error) {
    if (signal?.aborted === true) throw new Error("reading the mailbox was stopped.")
    throw new Error(imapFailure(error, where, query.mailbox))
  } finally {
    signal?.removeEventListener("abort", abort)
    await client.logout().catch(() => client.close())
  }
}
