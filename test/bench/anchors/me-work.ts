/**
 * The work of `GET /api/auth/me`, written once for the anchors so they do exactly what the
 * node does and nothing else: verify the signed `svc_session` cookie (HMAC-SHA-256 under the
 * node's secret from node_meta, as the node's `unsignCookie`), find the session by the SHA-256
 * digest of its token joined to its being in one statement (the node's `Sessions.resolve`) and
 * answer the being as JSON with the node's security headers. The database is the node's own
 * node.db, opened read-only, so every server reads one file.
 *
 * Plain Node and better-sqlite3, as a person writing the program would: no effect and none of the
 * node's schemas, so an anchor's memory and start are its framework's. The select list is the node's,
 * written out here; the cookie's signature and the headers come from the node's own plain modules.
 */
import Database from "better-sqlite3"
// The node's cookie signature and headers, from modules that import nothing but Node's own.
import { digest, unsignCookie } from "../../../extensions/accounts/tokens.ts"
import { securityHeaders } from "../../../host/http/security-headers.ts"

export { securityHeaders }

const SESSION_COOKIE = "svc_session"

/** The being as the node answers it (the contract's `Being`). */
export interface Being {
  readonly id: string
  readonly handle: string
  readonly displayName: string
  readonly email: string
  readonly isOwner: boolean
  readonly emailVerified: boolean
  readonly suspended: boolean
  readonly createdAt: string
}

interface BeingColumns extends Omit<Being, "isOwner" | "emailVerified" | "suspended"> {
  readonly sessionId: string
  readonly isOwner: number
  readonly emailVerified: number
  readonly suspended: number
}

const toBeing = (row: BeingColumns): Being => ({
  id: row.id,
  handle: row.handle,
  displayName: row.displayName,
  email: row.email,
  isOwner: row.isOwner === 1,
  emailVerified: row.emailVerified === 1,
  suspended: row.suspended === 1,
  createdAt: row.createdAt
})

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
  const resolveSession = db.prepare(`SELECT s.id AS sessionId, b.id, b.handle, b.display_name AS "displayName",
      b.email, b.is_owner AS "isOwner", b.email_verified_at IS NOT NULL AS "emailVerified",
      b.suspended_hash IS NOT NULL AS suspended, b.created_at AS "createdAt"
    FROM sessions s JOIN beings b ON b.id = s.being_id
    WHERE s.token_hash = ? AND s.expires_at > ?`)
  const ping = db.prepare("SELECT 1")

  /** The session a signed cookie value opens, with its being (the node's authentication middleware), or null. */
  const sessionOf = (value: string): SessionRow | null => {
    const token = unsignCookie(value, secret)
    if (token === null) return null
    const row = resolveSession.get(digest(token), new Date().toISOString()) as BeingColumns | undefined
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
