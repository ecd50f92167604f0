/**
 * `npm test`: everything a change can break, in order — the Debian packages the tests need,
 * the type-check, unit and API tests, the UI build, the Lit elements alone, then the browser flows. Stops at the
 * first failing step and says which.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** What the tests run against for real, and the file that shows each is there. */
const debianPackages = [
  { name: "chromium", file: "/usr/bin/chromium", why: "browser tests" },
  { name: "bubblewrap", file: "/usr/bin/bwrap", why: "the nova sandbox of code.execute" },
  {
    name: "python3-aiosmtpd",
    file: "/usr/lib/python3/dist-packages/aiosmtpd",
    why: "the SMTP server of the mail tests"
  },
  { name: "poppler-utils", file: "/usr/bin/pdftotext", why: "reading the written PDFs" },
  { name: "libreoffice-writer-nogui", file: "/usr/bin/soffice", why: "opening the written DOCX files" },
  { name: "unzip", file: "/usr/bin/unzip", why: "reading a DOCX's XML" },
  { name: "dovecot-imapd", file: "/usr/lib/dovecot/imap", why: "the IMAP server of the email.read tests" },
  { name: "postgresql", file: "/usr/lib/postgresql/15/bin/initdb", why: "the PostgreSQL tests' throwaway clusters" },
  { name: "prometheus", file: "/usr/bin/promtool", why: "promtool, which checks what /api/metrics answers" },
  { name: "age", file: "/usr/bin/age", why: "the reference age command, which decrypts the node's backups" },
  {
    name: "python3-icalendar",
    file: "/usr/lib/python3/dist-packages/icalendar",
    why: "an independent reader of the exported calendar"
  }
]

const step = (title: string, command: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env) => {
  const started = Date.now()
  console.log(`\n▶ ${title}`)
  const run = spawnSync(command, args, { stdio: "inherit", env })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  if (run.status !== 0) {
    console.error(`\n✗ ${title} failed after ${seconds} s.`)
    process.exit(run.status ?? 1)
  }
  console.log(`✓ ${title} (${seconds} s)`)
}

const missing = debianPackages.filter((pkg) => !existsSync(pkg.file))
if (missing.length > 0) {
  const names = missing.map((pkg) => pkg.name)
  if (process.getuid?.() === 0) {
    step(`Installing Debian packages: ${names.join(", ")}`, "sh", [
      "-c",
      `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${names.join(" ")}`
    ])
  } else {
    console.error(
      `The tests need these Debian packages: ${missing.map((pkg) => `${pkg.name} (${pkg.why})`).join(", ")}.\n` +
        `Install them with: sudo apt-get install -y ${names.join(" ")}`
    )
    process.exit(1)
  }
}

const npx = (bin: string) => `node_modules/.bin/${bin}`
step("Type-check", process.execPath, [npx("tsc"), "--noEmit", "-p", "."])
step("Format and lint (Biome)", process.execPath, [npx("biome"), "ci", "--max-diagnostics=50", "."])

/** The OpenAPI document as /api/openapi.json serves it, derived from the contract with no server running. */
const { NodeApi } = await import("../host/contract/api.ts")
const { fromApi } = await import("@effect/platform/OpenApi")
const openApiFolder = mkdtempSync(join(tmpdir(), "node-openapi-"))
const openApiFile = join(openApiFolder, "openapi.json")
writeFileSync(openApiFile, JSON.stringify(fromApi(NodeApi), null, 2))
step(
  "OpenAPI lint (Redocly, recommended rules)",
  process.execPath,
  [npx("redocly"), "lint", "--config", "redocly.yaml", openApiFile],
  {
    ...process.env,
    REDOCLY_TELEMETRY: "off",
    REDOCLY_SUPPRESS_UPDATE_NOTICE: "true"
  }
)
rmSync(openApiFolder, { recursive: true, force: true })
step("Unit and API tests", process.execPath, [npx("vitest"), "run"])
step("Build the web app", process.execPath, ["ui/build.ts"])
step("Element tests (Chromium)", process.execPath, [npx("web-test-runner"), "--config", "web-test-runner.config.mjs"])
step("Browser tests (Chromium)", process.execPath, [npx("vitest"), "run", "--config", "vitest.e2e.config.ts"])
console.log("\nAll tests passed.")
