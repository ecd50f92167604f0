/** A being as read from its row: the columns to select and the record they make. */
import type { Being } from "./contract/records.ts"

export interface BeingRow {
  readonly id: string
  readonly handle: string
  readonly displayName: string
  readonly email: string
  readonly isOwner: number
  readonly emailVerifiedAt: string | null
  readonly suspended: number
  readonly createdAt: string
}

/** The select list of a being's columns, from a table known by `alias`. */
export const beingColumnsOf = (alias: string) =>
  [
    "id", "handle", "display_name AS displayName", "email", "is_owner AS isOwner",
    "email_verified_at AS emailVerifiedAt", "suspended_hash IS NOT NULL AS suspended", "created_at AS createdAt"
  ].map((column) => `${alias}.${column}`).join(", ")

export const beingColumns = beingColumnsOf("beings")

export const toBeing = (row: BeingRow): Being => ({
  id: row.id,
  handle: row.handle,
  displayName: row.displayName,
  email: row.email,
  isOwner: row.isOwner === 1,
  emailVerified: row.emailVerifiedAt !== null,
  suspended: row.suspended === 1,
  createdAt: row.createdAt
})

