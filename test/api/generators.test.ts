import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { rmSync } from "node:fs"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { generatorCatalogue } from "../../seeds/generators/index.ts"
import {
  Generator,
  GeneratorInput,
  GeneratorSummary,
  type GeneratorSeed
} from "../../extensions/generators/contract/generator.ts"
import { seedGenerators } from "../../extensions/generators/seed.ts"
import { at } from "../support/json.ts"
import {
  apiError,
  bodyAs,
  type Client,
  nodeWithOwner,
  refused,
  registerMember,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { worldActingSkill, writeWorldActingPlugin } from "../support/world-acting-plugin.ts"

const context = nodeWithOwner((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))
let alice: Registered
let bob: Registered

beforeAll(async () => {
  alice = await registerMember(context.node, context.owner.client)
  bob = await registerMember(context.node, context.owner.client)
  writeWorldActingPlugin(join(context.node.dataDir, "plugins"))
  await run(
    context.owner.client.api.plugins.installPlugin({
      payload: { dir: "courier", granted: ["world-acting", "filesystem"] }
    })
  )
})

type Step = Record<string, unknown>

/** A valid two-step generator; `steps` and other fields replace its own. */
const draft = (fields: Record<string, unknown> = {}) => ({
  name: "Tide notes",
  description: "Notes about tides.",
  inputsSchema: {
    type: "object",
    required: ["place"],
    properties: {
      place: { type: "string", "x-placeholder": "Brest" },
      length: { type: "integer", default: 600, "x-advanced": true }
    }
  },
  steps: [
    {
      id: "research",
      title: "Research {{inputs.place}}",
      role: "researcher",
      skills: ["web.search", "web.fetch"],
      instruction: "Find tide tables for {{inputs.place}}."
    },
    {
      id: "write",
      title: "Write",
      role: "writer",
      skills: ["docs.write_markdown"],
      instruction: "Write from {{steps.research.output}}.",
      deliverable: { file: "tides.md", words: { target: "{{inputs.length}}" }, requireSections: ["Tides"] }
    }
  ] as Array<Step>,
  outputKinds: ["markdown"],
  ...fields
})

/** A body as the contract types it: the fields it leaves out take the contract's defaults. */
const input = (body: Record<string, unknown>) => Schema.decodeUnknownSync(GeneratorInput)(body)

const create = (client: Client = alice.client, body: Record<string, unknown> = draft()) =>
  run(client.api.studioGenerators.createGenerator({ payload: input(body) }))

const generators = (client: Client) => client.api.studioGenerators
const getGenerator = (client: Client, idOrSlug: string) => generators(client).getGenerator({ path: { id: idOrSlug } })
const replace = (client: Client, id: string, body: Record<string, unknown>) =>
  generators(client).replaceGenerator({ path: { id }, payload: input(body) })
const remove = (client: Client, id: string) => generators(client).deleteGenerator({ path: { id } })
const list = (client: Client) => run(generators(client).listGenerators())

const query = <T extends object>(node: TestNode, text: string, ...params: Array<string>) =>
  node.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<T>(text, params)))

const generatorCount = async () =>
  (await query<{ n: number }>(context.node, "SELECT count(*) AS n FROM generators"))[0]!.n

describe("POST /api/studio/generators", () => {
  it("creates the generator for the caller with the spec's defaults", async () => {
    // Raw, with only what the person wrote: the node fills in the spec's defaults (the typed client would send them
    // itself).
    const answer = await alice.client.raw("POST", "/api/studio/generators", draft())
    expect(answer.status).toBe(200)
    const generator = bodyAs(Generator, answer)
    expect(answer.body).toMatchObject({
      id: expect.any(String),
      ownerId: alice.being.id,
      name: "Tide notes",
      slug: "tide-notes",
      icon: "✨",
      priceCredits: 0,
      isPublic: true,
      runs: 0,
      createdAt: expect.any(String),
      outputKinds: ["markdown"]
    })
    expect(at(answer.body, "steps", 0)).toEqual({
      id: "research",
      title: "Research {{inputs.place}}",
      role: "researcher",
      skills: ["web.search", "web.fetch"],
      instruction: "Find tide tables for {{inputs.place}}.",
      tier: "cheap",
      dependsOn: [],
      outputKind: "markdown"
    })
    expect(at(answer.body, "steps", 1, "deliverable")).toEqual({
      file: "tides.md",
      words: { target: "{{inputs.length}}", tolerance: 0.2, floor: 0 },
      frontmatter: [],
      minSourceLinks: 0,
      requireSections: ["Tides"],
      forbidOpeners: [],
      minRetainedWords: 0.85,
      minRetainedLinks: 1,
      maxRepairs: 1
    })
    expect(await run(getGenerator(alice.client, generator.id))).toEqual(generator)
    expect(await run(getGenerator(alice.client, generator.slug))).toEqual(generator)
  })

  it("derives the slug from the name and de-duplicates it with -2, -3", async () => {
    const slugs = []
    for (let n = 0; n < 3; n += 1) slugs.push((await create(alice.client, draft({ name: "Café Menu: Spring!" }))).slug)
    expect(slugs).toEqual(["cafe-menu-spring", "cafe-menu-spring-2", "cafe-menu-spring-3"])
    expect((await create(bob.client, draft({ name: "Anything", slug: "my-own-slug" }))).slug).toBe("my-own-slug")
  })

  it("refuses a supplied slug that another generator has (rule unique)", async () => {
    await create(alice.client, draft({ name: "Taken", slug: "taken-slug" }))
    const answer = await refused(
      generators(bob.client).createGenerator({ payload: input(draft({ slug: "taken-slug" })) })
    )
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({
      error: "generator_duplicate_slug",
      details: { rule: "unique", slug: "taken-slug" }
    })
    // A slug the contract's schema refuses before it leaves the typed client: sent raw.
    expect(apiError(await bob.client.raw("POST", "/api/studio/generators", draft({ slug: "Not A Slug" }))).error).toBe(
      "invalid_request"
    )
  })

  it("refuses a body naming an owner, an id, runs or a date, or any field it does not know", async () => {
    // Bodies the contract's schema refuses before they leave the typed client: sent raw.
    for (const [field, value] of [
      ["ownerId", "x"],
      ["id", "x"],
      ["runs", 9],
      ["createdAt", "2020-01-01"],
      ["owner", "x"]
    ] as const) {
      const answer = await alice.client.raw("POST", "/api/studio/generators", { ...draft(), [field]: value })
      expect(answer.status, field).toBe(400)
      expect(apiError(answer).details, field).toEqual([expect.objectContaining({ path: [field] })])
    }
    const misspelt = await alice.client.raw(
      "POST",
      "/api/studio/generators",
      draft({ steps: [{ ...draft().steps[0], dependson: [] }] })
    )
    expect(misspelt.status).toBe(400)
  })
})

describe("generator validation refuses by rule, and writes nothing", () => {
  const refusedByRule = async (body: Record<string, unknown>, code: string, details: Record<string, unknown>) => {
    const before = await generatorCount()
    const answer = await refused(generators(alice.client).createGenerator({ payload: input(body) }))
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ error: code, details })
    expect(typeof answer.body.message).toBe("string")
    expect(await generatorCount()).toBe(before)
  }
  const [research, write] = draft().steps

  it("rule unique: two steps with one id", async () => {
    await refusedByRule(draft({ steps: [research, { ...write, id: "research" }] }), "generator_duplicate_id", {
      rule: "unique",
      step: "research"
    })
  })

  it("rule skills: a skill outside the built-in catalogue (unknown, a plugin's, or one the spec keeps outside)", async () => {
    for (const skill of ["files.teleport", worldActingSkill, "docs.write_pdf", "http.json", "studio.author_module"]) {
      await refusedByRule(
        draft({ steps: [{ ...research, skills: ["web.search", skill] }, write] }),
        "generator_unknown_skill",
        { rule: "skills", step: "research", skill }
      )
    }
  })

  it("rule order: a dependsOn that is not an earlier step", async () => {
    await refusedByRule(
      draft({ steps: [{ ...research, dependsOn: ["write"] }, write] }),
      "generator_forward_dependency",
      { rule: "order", step: "research", dependsOn: "write" }
    )
  })

  it("rule references: reading the output of a step that is not earlier", async () => {
    await refusedByRule(
      draft({ steps: [{ ...research, instruction: "Check {{steps.write.output}}" }, write] }),
      "generator_unbacked_reference",
      { rule: "references", step: "research", reference: "write" }
    )
  })

  it("rule outputs: a declared output kind that no step produces", async () => {
    await refusedByRule(draft({ outputKinds: ["markdown", "docx"] }), "generator_undeclared_output", {
      rule: "outputs",
      outputKind: "docx"
    })
  })

  it("rule tier: a step on the strong tier", async () => {
    await refusedByRule(draft({ steps: [research, { ...write, tier: "strong" }] }), "generator_step_tier", {
      rule: "tier",
      step: "write",
      tier: "strong"
    })
  })

  it("an input form that is not usable JSON Schema, or a template naming a field it lacks", async () => {
    await refusedByRule(
      draft({ inputsSchema: { type: "object", properties: { place: { type: "text" } } } }),
      "generator_invalid_input_schema",
      { rule: "inputs" }
    )
    await refusedByRule(
      draft({ steps: [{ ...research, title: "On {{inputs.city}}" }, write] }),
      "generator_unknown_input",
      { rule: "inputs", input: "city" }
    )
  })
})

describe("GET /api/studio/generators", () => {
  it("lists public generators and the caller's own (first), never another's private one", async () => {
    const secret = await create(alice.client, draft({ name: "Alice private", isPublic: false }))
    const shared = await create(alice.client, draft({ name: "Alice shared" }))
    const bobs = await create(bob.client, draft({ name: "Bob private", isPublic: false }))
    const forBob = await list(bob.client)
    const ids = forBob.map((generator) => generator.id)
    expect(ids).toContain(shared.id)
    expect(ids).not.toContain(secret.id)
    expect(forBob.filter((generator) => generator.ownerId === bob.being.id)).toEqual(
      forBob.slice(0, forBob.filter((g) => g.ownerId === bob.being.id).length)
    )
    expect(ids).toContain(bobs.id)
    // The summary's fields as the wire carried them: the typed client's decoding would drop one the contract does not
    // list.
    const wire = await bob.client.raw("GET", "/api/studio/generators")
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
    expect((await list(alice.client)).map((generator) => generator.id)).toContain(secret.id)
    expect((await list(context.owner.client)).map((generator) => generator.id)).not.toContain(secret.id)
  })

  it("counts the caller's own runs only, in the list and on the record", async () => {
    const shared = await create(alice.client, draft({ name: "Counted tides" }))
    const start = (client: Client, place: string) =>
      run(client.api.studioProjects.createProject({ payload: { generatorId: shared.id, inputs: { place } } }))
    for (let n = 0; n < 2; n++) await start(alice.client, "Brest")
    const runsIn = async (client: Client) => (await list(client)).find((generator) => generator.id === shared.id)?.runs
    expect(await runsIn(alice.client)).toBe(2)
    expect(await runsIn(bob.client)).toBe(0)
    expect((await run(getGenerator(bob.client, shared.slug))).runs).toBe(0)
    expect((await run(getGenerator(alice.client, shared.slug))).runs).toBe(2)
    await start(bob.client, "Sète")
    expect(await runsIn(bob.client)).toBe(1)
    expect(await runsIn(alice.client)).toBe(2)
  })

  it("shows another's private generator to nobody but its owner and the world owner", async () => {
    const secret = await create(alice.client, draft({ name: "Hidden recipe", isPublic: false }))
    for (const key of [secret.id, secret.slug]) {
      expect((await refused(getGenerator(bob.client, key))).status, key).toBe(403)
      // The whole refusal as the wire carried it.
      expect((await bob.client.raw("GET", `/api/studio/generators/${key}`)).text).not.toContain("Find tide tables")
    }
    expect((await run(getGenerator(context.owner.client, secret.slug))).id).toBe(secret.id)
    expect((await refused(getGenerator(bob.client, "no-such-generator"))).status).toBe(404)
  })
})

describe("PUT and DELETE /api/studio/generators/:id", () => {
  it("lets the generator's owner replace it, keeping id, slug, owner, runs and createdAt", async () => {
    const generator = await create(alice.client, draft({ name: "Replace me" }))
    const answer = await run(
      replace(alice.client, generator.id, draft({ name: "Replaced", icon: "🌊", isPublic: false }))
    )
    expect(answer).toMatchObject({
      id: generator.id,
      slug: "replace-me",
      ownerId: alice.being.id,
      runs: 0,
      createdAt: generator.createdAt,
      name: "Replaced",
      icon: "🌊",
      isPublic: false
    })
    const moved = await run(replace(alice.client, generator.id, draft({ slug: "replaced" })))
    expect(moved.slug).toBe("replaced")
    await run(replace(alice.client, generator.id, draft({ slug: "replaced" })))
  })

  it("lets the world owner replace and delete a member's generator", async () => {
    const generator = await create(alice.client, draft({ name: "Owner edits" }))
    const replaced = await run(replace(context.owner.client, generator.id, draft({ name: "Edited by the owner" })))
    expect(replaced).toMatchObject({ name: "Edited by the owner", ownerId: alice.being.id })
    expect(await run(remove(context.owner.client, generator.id))).toEqual({ ok: true })
    expect((await refused(getGenerator(alice.client, generator.id))).status).toBe(404)
  })

  it("refuses anyone else with 403, a seeded generator included, and changes nothing", async () => {
    const generator = await create(alice.client, draft({ name: "Not yours" }))
    expect((await refused(replace(bob.client, generator.id, draft({ name: "Mine" })))).status).toBe(403)
    expect((await refused(remove(bob.client, generator.id))).status).toBe(403)
    expect(await run(getGenerator(alice.client, generator.id))).toEqual(generator)
    const seeded = await run(getGenerator(bob.client, "blog-post"))
    expect((await refused(replace(bob.client, seeded.id, draft()))).status).toBe(403)
    expect((await refused(remove(bob.client, seeded.id))).status).toBe(403)
  })

  it("validates an edit like a create, and refuses a slug another generator has", async () => {
    const generator = await create(alice.client, draft({ name: "Stays valid" }))
    const strong = await refused(
      replace(alice.client, generator.id, draft({ steps: [draft().steps[0], { ...draft().steps[1], tier: "strong" }] }))
    )
    expect(strong.body).toMatchObject({ error: "generator_step_tier" })
    const clash = await refused(replace(alice.client, generator.id, draft({ slug: "blog-post" })))
    expect(clash.body).toMatchObject({ error: "generator_duplicate_slug" })
    expect(await run(getGenerator(alice.client, generator.id))).toEqual(generator)
  })

  it("answers 404 for an unknown id, and the owner deletes their own", async () => {
    expect((await refused(replace(alice.client, "nope", draft()))).status).toBe(404)
    expect((await refused(remove(alice.client, "nope"))).status).toBe(404)
    const generator = await create(alice.client, draft({ name: "Short lived" }))
    await run(remove(alice.client, generator.id))
    expect((await refused(getGenerator(alice.client, generator.slug))).status).toBe(404)
  })
})

describe("the seeded catalogue", () => {
  it("holds at least six public generators of the system owner, each passing validation again as a member's copy", async () => {
    const seeded = (await list(bob.client)).filter((generator) => generator.ownerId === "system")
    expect(seeded.map((generator) => generator.slug).sort()).toEqual(generatorCatalogue.map((seed) => seed.slug).sort())
    expect(seeded.length).toBeGreaterThanOrEqual(6)
    for (const summary of seeded) {
      const { id, ownerId, runs, createdAt, slug, ...fields } = await run(getGenerator(bob.client, summary.slug))
      expect(fields.isPublic).toBe(true)
      const copy = await run(generators(bob.client).createGenerator({ payload: fields }))
      expect(copy.slug, slug).toBe(`${slug}-2`)
      await run(remove(bob.client, copy.id))
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
    expect((await refused(getGenerator(bob.client, "broken-seed"))).status).toBe(404)
  })

  it("leaves alone a member's generator that holds a seed's slug", async () => {
    const squatter = await create(alice.client, draft({ name: "Squatter", slug: "future-seed" }))
    await context.node.runtime.runPromise(seedGenerators([{ ...generatorCatalogue[0], slug: "future-seed" }]))
    expect(await run(getGenerator(alice.client, "future-seed"))).toEqual(squatter)
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
