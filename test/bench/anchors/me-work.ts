/**
 * The work of `GET /api/auth/me`, written once for the anchors so they do exactly what the
 * node does and nothing else: verify the signed `svc_session` cookie (HMAC-SHA256 under the
 * node's own secret from node_meta), find the session by the SHA-256 digest of its token and
 * join it to its being (the node's `Sessions.resolve` statement), read the being (the node's
 * `Accounts.findBeing` statement) and answer it as JSON with the node's security headers.
 * The database is the node's own node.db, opened read-only, so every server reads one file.
 */
import Database from "better-sqlite3"
import { createHash, createHmac, timingSafeEqual } from "node:crypto"

const SESSION_COOKIE = "svc_session"

/** The headers the node puts on every answer (host/http/security-headers.ts). */
export const securityHeaders = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "SAMEORIGIN",
  "referrer-policy": "strict-origin-when-cross-origin",
  "cross-origin-resource-policy": "same-site"
} as const

export const unauthorizedBody = JSON.stringify({ error: "unauthorized", message: "Sign in first: this needs a session." })

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

export interface SessionRow {
  readonly id: string
  readonly beingId: string
  readonly isOwner: number
}

interface BeingRow {
  readonly id: string
  readonly handle: string
  readonly displayName: string
  readonly email: string
  readonly isOwner: number
  readonly emailVerifiedAt: string | null
  readonly suspended: number
  readonly createdAt: string
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

/** The same check as host/auth/tokens.ts `unsignCookie`. */
const unsign = (value: string, secret: string): string | null => {
  const dot = value.lastIndexOf(".")
  if (dot <= 0) return null
  const token = value.slice(0, dot)
  const given = Buffer.from(value.slice(dot + 1))
  const expected = Buffer.from(createHmac("sha256", secret).update(token).digest("base64url"))
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null
}

export const openMeWork = (dbPath: string) => {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true })
  const secretRow = db.prepare("SELECT value FROM node_meta WHERE key = 'session_secret'").get() as
    | { value: string }
    | undefined
  if (secretRow === undefined) throw new Error(`${dbPath} holds no session_secret: start the node on it first`)
  const secret = secretRow.value
  const resolveSession = db.prepare(`SELECT s.id AS id, s.being_id AS beingId, b.is_owner AS isOwner
    FROM sessions s JOIN beings b ON b.id = s.being_id
    WHERE s.token_hash = ? AND s.expires_at > ?`)
  const findBeing = db.prepare(`SELECT id, handle, display_name AS displayName, email, is_owner AS isOwner,
    email_verified_at AS emailVerifiedAt, suspended_hash IS NOT NULL AS suspended, created_at AS createdAt
    FROM beings WHERE id = ? AND kind = 'human'`)
  const ping = db.prepare("SELECT 1")

  /** The session a signed cookie value opens (the node's authentication middleware), or null. */
  const sessionOf = (value: string): SessionRow | null => {
    const token = unsign(value, secret)
    if (token === null) return null
    const digest = createHash("sha256").update(token).digest("base64url")
    return (resolveSession.get(digest, new Date().toISOString()) as SessionRow | undefined) ?? null
  }

  /** The being as the node answers it (the node's `findBeing`), or null. */
  const beingOf = (id: string): Being | null => {
    const row = findBeing.get(id) as BeingRow | undefined
    if (row === undefined) return null
    return {
      id: row.id,
      handle: row.handle,
      displayName: row.displayName,
      email: row.email,
      isOwner: row.isOwner === 1,
      emailVerified: row.emailVerifiedAt !== null,
      suspended: row.suspended === 1,
      createdAt: row.createdAt
    }
  }

  /** The JSON body of a 200, or null for a 401. */
  const me = (cookieHeader: string | undefined): string | null => {
    const value = cookieValue(cookieHeader)
    if (value === undefined) return null
    const session = sessionOf(value)
    if (session === null) return null
    const being = beingOf(session.beingId)
    return being === null ? null : JSON.stringify({ being })
  }

  /** A health answer that touches the database, like the node's. */
  const health = (): string => {
    ping.get()
    return JSON.stringify({ ok: true })
  }

  return { me, sessionOf, beingOf, health }
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
