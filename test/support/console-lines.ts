/** Every console line the node writes in this test process, kept to look for secrets (and still printed). */
import { vi } from "vitest"

export const keepConsoleLines = () => {
  const lines: Array<string> = []
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[method].bind(console)
    vi.spyOn(console, method).mockImplementation((...args: Array<unknown>) => {
      lines.push(args.map((arg) => (typeof arg === "string" ? arg : (JSON.stringify(arg) ?? String(arg)))).join(" "))
      original(...args)
    })
  }
  return lines
}
