/** Records as the node answers them, for the element tests' fake node. */
import type { Being } from "../../../extensions/accounts/contract/records.ts"

export const owner: Being = {
  id: "b-owner",
  handle: "ada",
  displayName: "Ada",
  email: "ada@example.test",
  isOwner: true,
  emailVerified: true,
  suspended: false,
  createdAt: "2026-01-02T10:00:00.000Z"
}

export const ok = { json: { ok: true } }
