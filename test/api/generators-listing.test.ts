/**
 * Generators over real HTTP once made: listing (public ones and the caller's own, with the
 * caller's runs), replacing and deleting by their owner or the world owner, and the seeded
 * catalogue.
 */
import * as Schema from "effect/Schema"
import { rmSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { generatorCatalogue } from "../../seeds/generators/index.ts"
import { GeneratorSummary, type GeneratorSeed } from "../../extensions/generators/contract/generator.ts"
import { seedGenerators } from "../../extensions/generators/seed.ts"
import { at } from "../support/json.ts"
import { bodyAs, type Client, refused, run, startNode, type TestNode } from "../support/node.ts"
import { draft, generators, generatorsNode, getGenerator, list, query, remove, replace } from "./generators-support.ts"

const { context, create } = generatorsNode()

describe("GET /api/studio/generators", () => {
  it("lists public generators and the caller's own (first), never another's private one", async () => {
    const secret = await create(context.alice.client, draft({ name: "Alice private", isPublic: false }))
    const shared = await create(context.alice.client, draft({ name: "Alice shared" }))
    const bobs = await create(context.bob.client, draft({ name: "Bob private", isPublic: false }))
    const forBob = await list(context.bob.client)
    const ids = forBob.map((generator) => generator.id)
    expect(ids).toContain(shared.id)
    expect(ids).not.toContain(secret.id)
    expect(forBob.filter((generator) => generator.ownerId === context.bob.being.id)).toEqual(
      forBob.slice(0, forBob.filter((g) => g.ownerId === context.bob.being.id).length)
    )
    expect(ids).toContain(bobs.id)
    // The summary's fields as the wire carried them: the typed client's decoding would drop one the contract does not
    // list.
    const wire = await context.bob.client.raw("GET", "/api/studio/generators")
    expect(Object.keys(at(wire.body, 0) ?? {}).sort()).toEqual([
      "description",
      "icon",
      "id",
      "name",
      "outputKinds",
      "ownerId",
      "runs",
      "slug"
    ])
    expect(bodyAs(Schema.Array(GeneratorSummary), wire)).toEqual(forBob)
    expect((await list(context.alice.client)).map((generator) => generator.id)).toContain(secret.id)
    expect((await list(context.owner.client)).map((generator) => generator.id)).not.toContain(secret.id)
  })

  it("counts the caller's own runs only, in the list and on the record", async () => {
    const shared = await create(context.alice.client, draft({ name: "Counted tides" }))
    const start = (client: Client, place: string) =>
      run(client.api.studioProjects.createProject({ payload: { generatorId: shared.id, inputs: { place } } }))
    for (let n = 0; n < 2; n++) await start(context.alice.client, "Brest")
    const runsIn = async (client: Client) => (await list(client)).find((generator) => generator.id === shared.id)?.runs
    expect(await runsIn(context.alice.client)).toBe(2)
    expect(await runsIn(context.bob.client)).toBe(0)
    expect((await run(getGenerator(context.bob.client, shared.slug))).runs).toBe(0)
    expect((await run(getGenerator(context.alice.client, shared.slug))).runs).toBe(2)
    await start(context.bob.client, "Sète")
    expect(await runsIn(context.bob.client)).toBe(1)
    expect(await runsIn(context.alice.client)).toBe(2)
  })

  it("shows another's private generator to nobody but its owner and the world owner", async () => {
    const secret = await create(context.alice.client, draft({ name: "Hidden recipe", isPublic: false }))
    for (const key of [secret.id, secret.slug]) {
      expect((await refused(getGenerator(context.bob.client, key))).status, key).toBe(403)
      // The whole refusal as the wire carried it.
      expect((await context.bob.client.raw("GET", `/api/studio/generators/${key}`)).text).not.toContain(
        "Find tide tables"
      )
    }
    expect((await run(getGenerator(context.owner.client, secret.slug))).id).toBe(secret.id)
    expect((await refused(getGenerator(context.bob.client, "no-such-generator"))).status).toBe(404)
  })
})

describe("PUT and DELETE /api/studio/generators/:id", () => {
  it("lets the generator's owner replace it, keeping id, slug, owner, runs and createdAt", async () => {
    const generator = await create(context.alice.client, draft({ name: "Replace me" }))
    const answer = await run(
      replace(context.alice.client, generator.id, draft({ name: "Replaced", icon: "🌊", isPublic: false }))
    )
    expect(answer).toMatchObject({
      id: generator.id,
      slug: "replace-me",
      ownerId: context.alice.being.id,
      runs: 0,
      createdAt: generator.createdAt,
      name: "Replaced",
      icon: "🌊",
      isPublic: false
    })
    const moved = await run(replace(context.alice.client, generator.id, draft({ slug: "replaced" })))
    expect(moved.slug).toBe("replaced")
    await run(replace(context.alice.client, generator.id, draft({ slug: "replaced" })))
  })

  it("lets the world owner replace and delete a member's generator", async () => {
    const generator = await create(context.alice.client, draft({ name: "Owner edits" }))
    const replaced = await run(replace(context.owner.client, generator.id, draft({ name: "Edited by the owner" })))
    expect(replaced).toMatchObject({ name: "Edited by the owner", ownerId: context.alice.being.id })
    expect(await run(remove(context.owner.client, generator.id))).toEqual({ ok: true })
    expect((await refused(getGenerator(context.alice.client, generator.id))).status).toBe(404)
  })

  it("refuses anyone else with 403, a seeded generator included, and changes nothing", async () => {
    const generator = await create(context.alice.client, draft({ name: "Not yours" }))
    expect((await refused(replace(context.bob.client, generator.id, draft({ name: "Mine" })))).status).toBe(403)
    expect((await refused(remove(context.bob.client, generator.id))).status).toBe(403)
    expect(await run(getGenerator(context.alice.client, generator.id))).toEqual(generator)
    const seeded = await run(getGenerator(context.bob.client, "blog-post"))
    expect((await refused(replace(context.bob.client, seeded.id, draft()))).status).toBe(403)
    expect((await refused(remove(context.bob.client, seeded.id))).status).toBe(403)
  })

  it("validates an edit like a create, and refuses a slug another generator has", async () => {
    const generator = await create(context.alice.client, draft({ name: "Stays valid" }))
    const strong = await refused(
      replace(
        context.alice.client,
        generator.id,
        draft({ steps: [draft().steps[0], { ...draft().steps[1], tier: "strong" }] })
      )
    )
    expect(strong.body).toMatchObject({ error: "generator_step_tier" })
    const clash = await refused(replace(context.alice.client, generator.id, draft({ slug: "blog-post" })))
    expect(clash.body).toMatchObject({ error: "generator_duplicate_slug" })
    expect(await run(getGenerator(context.alice.client, generator.id))).toEqual(generator)
  })

  it("answers 404 for an unknown id, and the owner deletes their own", async () => {
    expect((await refused(replace(context.alice.client, "nope", draft()))).status).toBe(404)
    expect((await refused(remove(context.alice.client, "nope"))).status).toBe(404)
    const generator = await create(context.alice.client, draft({ name: "Short lived" }))
    await run(remove(context.alice.client, generator.id))
    expect((await refused(getGenerator(context.alice.client, generator.slug))).status).toBe(404)
  })
})

describe("the seeded catalogue", () => {
  it("holds at least six public generators of the system owner, each passing validation again as a member's copy", async () => {
    const seeded = (await list(context.bob.client)).filter((generator) => generator.ownerId === "system")
    expect(seeded.map((generator) => generator.slug).sort()).toEqual(generatorCatalogue.map((seed) => seed.slug).sort())
    expect(seeded.length).toBeGreaterThanOrEqual(6)
    for (const summary of seeded) {
      const { id, ownerId, runs, createdAt, slug, ...fields } = await run(
        getGenerator(context.bob.client, summary.slug)
      )
      expect(fields.isPublic).toBe(true)
      const copy = await run(generators(context.bob.client).createGenerator({ payload: fields }))
      expect(copy.slug, slug).toBe(`${slug}-2`)
      await run(remove(context.bob.client, copy.id))
    }
  })

  it("gives every generator a real input form with hints and contracts on its steps", () => {
    for (const seed of generatorCatalogue) {
      const fields = Object.values(seed.inputsSchema.properties as Record<string, Record<string, unknown>>)
      expect(fields.length, seed.slug).toBeGreaterThanOrEqual(3)
      expect(
        fields.some((field) => "x-placeholder" in field || "x-multiline" in field),
        seed.slug
      ).toBe(true)
      expect(
        seed.steps.every((step) => step.deliverable?.file !== undefined),
        seed.slug
      ).toBe(true)
    }
    const hints = JSON.stringify(generatorCatalogue.map((seed) => seed.inputsSchema))
    for (const hint of ["x-multiline", "x-placeholder", "x-advanced", "x-showWhen"]) expect(hints).toContain(hint)
  })

  it("fails loudly on a seed that breaks a rule, naming it", async () => {
    const broken: GeneratorSeed = {
      ...generatorCatalogue[0],
      slug: "broken-seed",
      steps: [{ ...generatorCatalogue[0].steps[0], tier: "strong" }]
    }
    await expect(context.node.runtime.runPromise(seedGenerators([broken]))).rejects.toThrow(
      /broken-seed.*generator_step_tier/
    )
    expect((await refused(getGenerator(context.bob.client, "broken-seed"))).status).toBe(404)
  })

  it("leaves alone a member's generator that holds a seed's slug", async () => {
    const squatter = await create(context.alice.client, draft({ name: "Squatter", slug: "future-seed" }))
    await context.node.runtime.runPromise(seedGenerators([{ ...generatorCatalogue[0], slug: "future-seed" }]))
    expect(await run(getGenerator(context.alice.client, "future-seed"))).toEqual(squatter)
  })

  it("is upserted idempotently: a second boot on the same data keeps every row", async () => {
    const first = await startNode()
    const dataDir = first.dataDir
    const slug = generatorCatalogue[0].slug
    const rowsOf = (node: TestNode) => query<Record<string, unknown>>(node, "SELECT * FROM generators ORDER BY slug")
    const [{ id }] = await query<{ id: string }>(first, "SELECT id FROM generators WHERE slug = ?", slug)
    const before = await rowsOf(first)
    await first.runtime.dispose()
    const second = await startNode({ dataDir })
    try {
      const after = await rowsOf(second)
      expect(after).toEqual(before)
      expect(after.find((row) => row.slug === slug)).toMatchObject({ id })
    } finally {
      await second.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
