import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { decodeManifest } from "../../../kernel/extensions/read-manifest.ts"

const good = {
  apiVersion: "1.0",
  id: "@ada/weather",
  version: "1.2.0",
  namespace: "weather",
  name: "Weather",
  description: "Forecasts.",
  icon: "cloud",
  author: "Ada",
  license: "MIT",
  main: "index.js",
  capabilities: [
    { kind: "network", reason: "fetches forecasts" },
    { kind: "world-acting", reason: "posts the forecast to your chat" }
  ],
  extensions: [
    { kind: "skill", id: "forecast", title: "Forecast", uses: ["network"], inputsSchema: { type: "object" } },
    { kind: "skill", id: "post", uses: ["network", "world-acting"] }
  ],
  pricing: { model: "free", credits: 0 },
  minHostVersion: ">=0.1.0"
}

const refusal = (input: unknown) => {
  const result = Effect.runSync(Effect.either(decodeManifest(input)))
  if (Either.isRight(result)) throw new Error("expected the manifest to be refused")
  expect(result.left.error).toBe("invalid_manifest")
  return result.left.message
}

describe("PluginManifest", () => {
  it("accepts a good manifest and keeps kind-specific extension fields", () => {
    const manifest = Effect.runSync(decodeManifest(good))
    expect(manifest.id).toBe("@ada/weather")
    expect(manifest.extensions[0]).toMatchObject({ kind: "skill", id: "forecast", inputsSchema: { type: "object" } })
  })

  it("fills the optional fields with their defaults", () => {
    const { description, icon, author, license, main, capabilities, extensions, pricing, minHostVersion, ...required } =
      good
    const manifest = Effect.runSync(decodeManifest(required))
    expect(manifest).toMatchObject({
      description: "",
      main: null,
      capabilities: [],
      extensions: [],
      pricing: { model: "free", credits: 0 },
      minHostVersion: null
    })
  })

  it("refuses a world-acting capability without a reason", () => {
    const message = refusal({ ...good, capabilities: [{ kind: "network" }, { kind: "world-acting", reason: "  " }] })
    expect(message).toContain("capabilities.1.reason")
    expect(message).toContain("world-acting capability needs a non-empty reason")
  })

  it("refuses an extension whose uses are not among the plugin's capabilities", () => {
    const message = refusal({
      ...good,
      extensions: [{ kind: "skill", id: "forecast", uses: ["network", "llm", "memory"] }]
    })
    expect(message).toContain("extensions.0.uses")
    expect(message).toContain(
      `extension "forecast" uses "llm", "memory", which the plugin does not declare in capabilities`
    )
  })

  it("refuses an id that is not npm-shaped '@author/name'", () => {
    for (const id of ["weather", "@Ada/weather", "@ada/", "@ada/weather/x"]) {
      expect(refusal({ ...good, id })).toContain("id must be npm-shaped '@author/name'")
    }
  })

  it("refuses a version that is not semver", () => {
    for (const version of ["1.2", "v1.2.0", "latest"]) {
      expect(refusal({ ...good, version })).toContain("version must be semver")
    }
  })

  it("refuses a namespace that is not one lowercase segment", () => {
    for (const namespace of ["Weather", "weather.app", "9lives", ""]) {
      expect(refusal({ ...good, namespace })).toContain("namespace must be one lowercase segment")
    }
  })

  it("refuses an unknown capability kind", () => {
    const message = refusal({ ...good, capabilities: [{ kind: "telepathy" }] })
    expect(message).toContain("capabilities.0.kind")
    expect(message).toContain(`"telepathy"`)
  })

  it("refuses an unknown extension kind, a bad extension id and duplicate ids", () => {
    expect(refusal({ ...good, extensions: [{ kind: "daemon", id: "x", uses: [] }] })).toContain(`"daemon"`)
    expect(refusal({ ...good, extensions: [{ kind: "skill", id: "a.b", uses: [] }] })).toContain(
      "extension id must be one lowercase segment"
    )
    expect(
      refusal({
        ...good,
        extensions: [
          { kind: "skill", id: "x", uses: [] },
          { kind: "theme", id: "x", uses: [] }
        ]
      })
    ).toContain(`extension id "x" is used more than once`)
  })

  it("refuses a bad apiVersion, main outside the folder, negative credits and a bad minHostVersion", () => {
    expect(refusal({ ...good, apiVersion: "1" })).toContain(`apiVersion must be "major.minor"`)
    expect(refusal({ ...good, main: "../escape.js" })).toContain("main must be a path inside the plugin folder")
    expect(refusal({ ...good, main: "/etc/passwd" })).toContain("main must be a path inside the plugin folder")
    expect(refusal({ ...good, pricing: { model: "free", credits: -1 } })).toContain("credits must be a number >= 0")
    expect(refusal({ ...good, minHostVersion: "soon" })).toContain("minHostVersion must be a semver version or range")
  })

  it("lists every issue in details", () => {
    const result = Effect.runSync(Effect.either(decodeManifest({ ...good, id: "bad", version: "bad" })))
    expect(Either.isLeft(result) && result.left.details).toMatchObject({
      issues: [{ path: "id" }, { path: "version" }]
    })
  })

  it("takes a remote MCP server over https or loopback http, declaring network", () => {
    const remote = (url: string, capabilities: ReadonlyArray<unknown> = good.capabilities) => ({
      ...good,
      main: null,
      extensions: [],
      capabilities,
      mcp: { url }
    })
    for (const url of [
      "https://tools.example/mcp",
      "http://127.0.0.1:8123/mcp",
      "http://localhost/mcp",
      "http://[::1]:9/mcp"
    ]) {
      expect(Effect.runSync(decodeManifest(remote(url))).mcp).toEqual({ url })
    }
    for (const url of ["http://tools.example/mcp", "http://192.168.1.2/mcp", "ftp://tools.example/", "https://a b/"]) {
      expect(refusal(remote(url))).toContain("mcp.url must be an https URL (or http on a loopback address)")
    }
    expect(refusal(remote("https://tools.example/mcp", [{ kind: "world-acting", reason: "acts" }]))).toContain(
      "a remote MCP server (mcp.url) needs the network capability declared"
    )
  })
})
