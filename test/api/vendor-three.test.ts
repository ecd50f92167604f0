/**
 * The node's own copy of three.js for scene previews (GET/HEAD /api/vendor/three@0.170.0/three.module.js)
 * on a real node: the pinned package's module file, to anyone (a public package; a preview asks
 * from an opaque origin, so with Origin null and no cookie), cacheable for good.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Client, startNode, type TestNode } from "../support/node.ts"

let node: TestNode
beforeAll(async () => {
  node = await startNode()
})
afterAll(() => node.close())

const path = "/api/vendor/three@0.170.0/three.module.js"
const packaged = readFileSync(join(dirname(createRequire(import.meta.url).resolve("three")), "three.module.js"), "utf8")

describe("the node's copy of three.js", () => {
  it("answers the pinned module file without a session, to an opaque origin", async () => {
    const answer = await new Client(node.url).raw("GET", path, undefined, { origin: "null" })
    expect(answer.status).toBe(200)
    expect(answer.headers["content-type"]).toBe("text/javascript; charset=utf-8")
    expect(answer.headers["access-control-allow-origin"]).toBe("*")
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
    expect(answer.text).toBe(packaged)
    expect(answer.text).toContain("const REVISION = '170'")
  })

  it("answers HEAD with the length and no body, and nothing for another version", async () => {
    const head = await new Client(node.url).raw("HEAD", path)
    expect([head.status, head.headers["content-length"], head.text]).toEqual([
      200,
      String(Buffer.byteLength(packaged)),
      ""
    ])
    expect((await new Client(node.url).raw("GET", "/api/vendor/three@0.169.0/three.module.js")).status).toBe(404)
  })
})
