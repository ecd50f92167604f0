/**
 * What every scale-out section prints beside its figures: the machine's load, PostgreSQL's version, small statistics.
 */
import { availableParallelism, loadavg } from "node:os"
import pg from "pg"

export const machineLoad = () => {
  const [one, five] = loadavg()
  return `load average ${one!.toFixed(1)} (1 min), ${five!.toFixed(1)} (5 min) on ${availableParallelism()} cores`
}

export const postgresVersion = async (url: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ server_version: string }>("SHOW server_version")
    return `PostgreSQL ${rows[0]!.server_version}`
  } finally {
    await client.end()
  }
}

export const sorted = (values: ReadonlyArray<number>) => Float64Array.from(values).sort()

export const percentile = (values: ReadonlyArray<number>, p: number) => {
  const ordered = sorted(values)
  return ordered.length === 0
    ? Number.NaN
    : ordered[Math.min(ordered.length - 1, Math.ceil((p / 100) * ordered.length) - 1)]!
}

export const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a")

export const ratio = (a: number, b: number) => fixed(b > 0 ? a / b : Number.NaN, 2)

/** Prints rows as columns, the first left-aligned. */
export const table = (rows: ReadonlyArray<ReadonlyArray<string>>) => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0)))
  for (const row of rows)
    console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "))
}
