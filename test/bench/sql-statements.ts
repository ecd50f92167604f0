/**
 * Counts the SQL statements each database file runs, for benches that put two nodes in one
 * process: every execution of a prepared better-sqlite3 statement (`run`, `get`, `all`, `iterate`,
 * which is how @effect/sql-sqlite-node executes each one) is counted against its database's file
 * name. Installed once, on first use; a bench reads the counts before and after what it measures.
 */
import Database from "better-sqlite3"

const counts = new Map<string, number>()
let installed = false

const install = () => {
  if (installed) return
  installed = true
  const probe = new Database(":memory:")
  const prototype = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, unknown>
  probe.close()
  for (const method of ["run", "get", "all", "iterate"]) {
    const original = prototype[method] as (...args: Array<unknown>) => unknown
    prototype[method] = function (this: { readonly database: { readonly name: string } }, ...args: Array<unknown>) {
      const name = this.database.name
      counts.set(name, (counts.get(name) ?? 0) + 1)
      return original.apply(this, args)
    }
  }
}

/** The statements run so far on every database file whose name starts with `prefix` (a node's data folder). */
export const statementsUnder = (prefix: string): number => {
  install()
  let total = 0
  for (const [name, count] of counts) if (name.startsWith(prefix)) total += count
  return total
}
