/**
 * The work of `GET /api/auth/me`, written once for the anchors so they do exactly what the
 * node does and nothing else: verify the signed `svc_session` cookie (the node's own
 * `unsignCookie`, under its secret from node_meta), find the session by the SHA-256 digest of
 * its token joined to its being in one statement (the node's `Sessions.resolve`) and answer the
 * being as JSON with the node's security headers. The database is the node's own node.db,
 * opened read-only, so every server reads one file.
 */
import Database from "better-sqlite3"
import * as Schema from "effect/Schema"
import { beingColumnsOf, BeingRow } from "../../../extensions/accounts/repositories/beings-reads.ts"
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import { digest, unsignCookie } from "../../../extensions/accounts/tokens.ts"
import { securityHeaders } from "../../../host/http/security-headers.ts"

export { securityHeaders }

const SESSION_COOKIE = "svc_session"

/** The row's columns as the node's sessions repository decodes them. */
const toBeing = Schema.decodeUnknownSync(BeingRow)

export const unauthorizedBody = JSON.stringify({
  error: "unauthorized",
  message: "Sign in first: this needs a session."
})

export interface SessionRow {
  readonly sessionId: string
  readonly being: Being
}

/** The cookie's value in a Cookie header, or undefined. */
const cookieValue = (header: string | undefined): string | undefined => {
  if (header === undefined) return undefined
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=")
    if (eq > 0 && pair.slice(0, eq).trim() === SESSION_COOKIE) return pair.slice(eq + 1).trim()
  }
  return undefined
}

export const openMeWork = (dbPath: string) => {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true })
  const secretRow = db.prepare("SELECT value FROM node_meta WHERE key = 'session_secret'").get() as
    | { value: string }
    | undefined
  if (secretRow === undefined) throw new Error(`${dbPath} holds no session_secret: start the node on it first`)
  const secret = secretRow.value
  const resolveSession = db.prepare(`SELECT s.id AS sessionId, ${beingColumnsOf("b")}
    FROM sessions s JOIN beings b ON b.id = s.being_id
    WHERE s.token_hash = ? AND s.expires_at > ?`)
  const ping = db.prepare("SELECT 1")

  /** The session a signed cookie value opens, with its being (the node's authentication middleware), or null. */
  const sessionOf = (value: string): SessionRow | null => {
    const token = unsignCookie(value, secret)
    if (token === null) return null
    const row = resolveSession.get(digest(token), new Date().toISOString()) as { sessionId: string } | undefined
    return row === undefined ? null : { sessionId: row.sessionId, being: toBeing(row) }
  }

  /** The JSON body of a 200, or null for a 401. */
  const me = (cookieHeader: string | undefined): string | null => {
    const value = cookieValue(cookieHeader)
    if (value === undefined) return null
    const session = sessionOf(value)
    return session === null ? null : JSON.stringify({ being: session.being })
  }

  /** A health answer that touches the database, like the node's. */
  const health = (): string => {
    ping.get()
    return JSON.stringify({ ok: true })
  }

  return { me, sessionOf, health }
}

/** `--db <path> --port <n>` from argv. */
export const anchorArgs = (): { db: string; port: number } => {
  const args = process.argv.slice(2)
  const at = (name: string) => {
    const i = args.indexOf(name)
    if (i < 0 || i + 1 >= args.length) throw new Error(`missing ${name}`)
    return args[i + 1]
  }
  return { db: at("--db"), port: Number(at("--port")) }
}
