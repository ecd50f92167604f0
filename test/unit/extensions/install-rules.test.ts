import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import {
  checkCompatibility,
  checkGrants,
  checkPlacement,
  isApiVersionSupported
} from "../../../kernel/extensions/install-rules.ts"
import type { PluginManifest } from "../../../kernel/contract/manifest.ts"
import { reservedNamespaces } from "../../../extensions/plugins/contract/reserved-namespaces.ts"
import { decodeManifest } from "../../../kernel/extensions/read-manifest.ts"

const manifest = (overrides: Record<string, unknown> = {}): PluginManifest =>
  Effect.runSync(
    decodeManifest({
      apiVersion: "1.0",
      id: "@ada/tools",
      version: "1.0.0",
      namespace: "tools",
      name: "Tools",
      capabilities: [{ kind: "network" }, { kind: "storage" }, { kind: "world-acting", reason: "sends mail" }],
      ...overrides
    })
  )

const failure = <E>(effect: Effect.Effect<unknown, E>) => {
  const result = Effect.runSync(Effect.either(effect))
  if (Either.isRight(result)) throw new Error("expected a refusal")
  return result.left
}

describe("install rules", () => {
  it("refuses a reserved namespace for a local plugin but allows it for a built-in", () => {
    const web = manifest({ namespace: "web" })
    expect(failure(checkPlacement(web, { kind: "local", dir: "web" }, [], reservedNamespaces))).toMatchObject({
      _tag: "ReservedNamespace",
      error: "reserved_namespace"
    })
    for (const namespace of ["system", "chat_a", "plugin", "memory"]) {
      expect(
        failure(
          checkPlacement(
            manifest({ namespace }),
            { kind: "market", listingId: "l", packageName: "p", version: "1.0.0" },
            [],
            reservedNamespaces
          )
        )
      ).toMatchObject({ error: "reserved_namespace" })
    }
    expect(Effect.runSync(Effect.either(checkPlacement(web, { kind: "builtin" }, [], reservedNamespaces)))).toEqual(
      Either.right(undefined)
    )
  })

  it("refuses a namespace another installed plugin holds, and a second install of the same id", () => {
    const installed = [{ id: "@bob/tools", namespace: "tools" }]
    expect(
      failure(checkPlacement(manifest(), { kind: "local", dir: "tools" }, installed, reservedNamespaces))
    ).toMatchObject({
      _tag: "NamespaceTaken",
      error: "namespace_taken",
      details: { namespace: "tools", by: "@bob/tools" }
    })
    expect(
      failure(
        checkPlacement(
          manifest({ namespace: "other" }),
          { kind: "local", dir: "x" },
          [{ id: "@ada/tools", namespace: "x" }],
          reservedNamespaces
        )
      )
    ).toMatchObject({ _tag: "PluginInstalled", error: "plugin_installed" })
  })

  it("refuses missing grants naming the missing kinds", () => {
    const refusal = failure(checkGrants(manifest(), ["storage"]))
    expect(refusal).toMatchObject({
      _tag: "MissingGrants",
      error: "missing_grants",
      details: { missing: ["network", "world-acting"] }
    })
    expect(refusal.message).toContain("network, world-acting")
  })

  it("grants exactly the declared kinds, whatever else the owner ticked", () => {
    expect(Effect.runSync(checkGrants(manifest(), ["world-acting", "storage", "network", "credits"]))).toEqual([
      "network",
      "storage",
      "world-acting"
    ])
  })

  it("accepts the same major with an equal or older minor only", () => {
    expect(isApiVersionSupported("1.0", "1.2")).toBe(true)
    expect(isApiVersionSupported("1.2", "1.2")).toBe(true)
    expect(isApiVersionSupported("1.3", "1.2")).toBe(false)
    expect(isApiVersionSupported("0.9", "1.2")).toBe(false)
    expect(isApiVersionSupported("2.0", "1.2")).toBe(false)
    expect(failure(checkCompatibility(manifest({ apiVersion: "1.1" }), "0.1.0"))).toMatchObject({
      error: "unsupported_api_version"
    })
  })

  it("refuses a plugin whose minHostVersion the node does not meet", () => {
    expect(failure(checkCompatibility(manifest({ minHostVersion: "0.2.0" }), "0.1.0"))).toMatchObject({
      error: "host_too_old",
      details: { minHostVersion: "0.2.0", hostVersion: "0.1.0" }
    })
    expect(Effect.runSync(Effect.either(checkCompatibility(manifest({ minHostVersion: "^2.0.0" }), "2.5.0")))).toEqual(
      Either.right(undefined)
    )
    expect(failure(checkCompatibility(manifest({ minHostVersion: "^2.0.0" }), "3.0.0"))).toMatchObject({
      error: "host_too_old"
    })
    expect(Effect.runSync(Effect.either(checkCompatibility(manifest({ minHostVersion: "0.1.0" }), "0.3.0")))).toEqual(
      Either.right(undefined)
    )
  })
})
