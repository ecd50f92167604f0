/** What the twin's end-to-end files share: its owner. */
import type { Person } from "./flows.ts"

export const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}
