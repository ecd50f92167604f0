/**
 * `npm run owner:reset` on a node that sends no mail: run against the node's data folder, while
 * the node runs and while it is stopped, it prints a one-time reset link whose token sets the
 * owner's new password through the reset route (every session of the owner ends).
 */
import { execFile } from "node:child_process"
import { rmSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { Client, refused, registerOwner, run, startNode } from "../support/node.ts"

const repoRoot = fileURLToPath(new URL("../..", import.meta.url))

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** The command as an operator types it, with the node's DATA_DIR and PUBLIC_URL. */
const ownerReset = (env: Record<string, string>): Promise<Run> =>
  new Promise((resolve) => {
    execFile(
      "npm",
      ["run", "--silent", "owner:reset"],
      { cwd: repoRoot, env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr })
    )
  })

const printedLink = (run: Run): URL => {
  expect(run.code).toBe(0)
  const line = run.stdout.split("\n").find((text) => /^https?:\/\//.test(text))
  expect(line, run.stdout).toBeDefined()
  return new URL(line!)
}

describe("npm run owner:reset", () => {
  it("prints a link while the node runs; the link sets a new password once and signs the owner out everywhere", async () => {
    const node = await startNode()
    try {
      const owner = await registerOwner(node)
      const command = await ownerReset({ DATA_DIR: node.dataDir, PUBLIC_URL: node.url })
      expect(command.stdout).toContain(
        `A password reset link for the owner (${owner.registration.email}); it works once, for one hour:`
      )
      const link = printedLink(command)
      expect(link.origin).toBe(node.url)
      expect(link.pathname).toBe("/reset")

      const token = link.searchParams.get("token")!
      await run(
        new Client(node.url).api.authPublic.resetPassword({ payload: { token, password: "recovered secret 1" } })
      )
      expect((await refused(owner.client.api.auth.me())).status).toBe(401)
      const login = (password: string) =>
        new Client(node.url).api.authPublic.login({ payload: { email: owner.registration.email, password } })
      expect((await refused(login(owner.registration.password))).status).toBe(401)
      const signedIn = await run(login("recovered secret 1"))
      expect(signedIn.being.isOwner).toBe(true)

      const again = await refused(
        new Client(node.url).api.authPublic.resetPassword({ payload: { token, password: "another secret 2" } })
      )
      expect(again.status).toBe(400)
      expect(again.body.error).toBe("invalid_token")
    } finally {
      await node.close()
    }
  })

  it("works on a stopped node's data folder; the node started again takes the link", async () => {
    const first = await startNode()
    const dataDir = first.dataDir
    let second: Awaited<ReturnType<typeof startNode>> | null = null
    try {
      const owner = await registerOwner(first)
      await first.runtime.dispose()

      const command = await ownerReset({ DATA_DIR: dataDir, PUBLIC_URL: "https://node.example.org/" })
      const link = printedLink(command)
      expect(link.origin).toBe("https://node.example.org")

      second = await startNode({ dataDir })
      await run(
        new Client(second.url).api.authPublic.resetPassword({
          payload: { token: link.searchParams.get("token")!, password: "recovered secret 1" }
        })
      )
      await run(
        new Client(second.url).api.authPublic.login({
          payload: { email: owner.registration.email, password: "recovered secret 1" }
        })
      )
    } finally {
      await second?.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it("says why there is no link: no owner yet, or no node database at DATA_DIR", async () => {
    const node = await startNode()
    try {
      const noOwner = await ownerReset({ DATA_DIR: node.dataDir })
      expect(noOwner.code).toBe(1)
      expect(noOwner.stdout).toBe("")
      expect(noOwner.stderr).toContain("Nobody has registered as the owner yet")
    } finally {
      await node.close()
    }
    const nowhere = await ownerReset({ DATA_DIR: `${node.dataDir}-missing` })
    expect(nowhere.code).toBe(1)
    expect(nowhere.stderr).toContain(`There is no node database at ${node.dataDir}-missing/node.db`)
  })
})
