/**
 * The web app's bundle holds the UI's own files, packages and contract modules, nothing else of
 * the server: built here with esbuild's metafile, every input outside ui/ and node_modules must
 * be a contract module, and no server-only name may reach the shipped text.
 */
import * as esbuild from "esbuild"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { isContract, repoRoot } from "./imports.ts"

describe("the web app's bundle", () => {
  it("takes nothing of the server but contract modules", async () => {
    const result = await esbuild.build({
      absWorkingDir: repoRoot,
      entryPoints: [join(repoRoot, "ui", "app.ts")],
      bundle: true,
      format: "esm",
      splitting: true,
      outdir: "out",
      write: false,
      metafile: true,
      minify: true,
      logLevel: "silent"
    })
    const inputs = Object.keys(result.metafile.inputs)
    expect(inputs.some((input) => input.startsWith("ui/"))).toBe(true)
    const server = inputs.filter(
      (input) => !input.startsWith("ui/") && !input.startsWith("node_modules/") && !isContract(input)
    )
    expect(server).toEqual([])
    const shipped = result.outputFiles.map((file) => file.text).join("\n")
    for (const serverOnly of ["LLM_PRICES", "OWNER_ACCESS_CODE", "SESSION_SECRET", "semver"]) {
      expect(shipped, serverOnly).not.toContain(serverOnly)
    }
  })
})
