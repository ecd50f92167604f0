/**
 * A fresh person's registration body: the one place tests and benches spell what registering takes.
 * Each call names a new person (handle and email unique within this process).
 */
let handleCounter = 0

export const person = (
  accessCode: string,
  overrides: Partial<Record<"email" | "password" | "handle" | "displayName", string>> = {}
) => {
  handleCounter += 1
  const handle = `person_${process.pid}_${handleCounter}`
  return {
    email: `${handle}@example.org`,
    password: "correct horse battery",
    handle,
    displayName: `Person ${handleCounter}`,
    accessCode,
    ...overrides
  }
}
