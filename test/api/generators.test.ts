import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { rmSync } from "node:fs"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { generatorCatalogue } from "../../seeds/generators/index.ts"
import type { GeneratorSeed } from "../../extensions/generators/contract/generator.ts"
import { seedGenerators } from "../../extensions/generators/seed.ts"
import { nodeWithOwner, registerMember, startNode, type Registered, type TestNode } from "../support/node.ts"
import { worldActingSkill, writeWorldActingPlugin } from "../support/world-acting-plugin.ts"

const context = nodeWithOwner((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))
let alice: Registered
let bob: Registered

beforeAll(async () => {
  alice = await registerMember(context.node, context.owner.client)
  bob = await registerMember(context.node, context.owner.client)
  writeWorldActingPlugin(join(context.node.dataDir, "plugins"))
  const installed = await context.owner.client.post("/api/plugins", { dir: "courier", granted: ["world-acting"] })
  if (installed.status !== 200) throw new Error(`installing the test plugin failed: ${installed.text}`)
})

type Step = Record<string, unknown>

/** A valid two-step generator; `steps` and other fields replace its own. */
const draft = (fields: Record<string, unknown> = {}) => ({
  name: "Tide notes",
  description: "Notes about tides.",
  inputsSchema: {
    type: "object",
    required: ["place"],
    properties: { place: { type: "string", "x-placeholder": "Brest" }, length: { type: "integer", default: 600, "x-advanced": true } }
  },
  steps: [
    { id: "research", title: "Research {{inputs.place}}", role: "researcher", skills: ["web.search", "web.fetch"], instruction: "Find tide tables for {{inputs.place}}." },
    {
      id: "write", title: "Write", role: "writer", skills: ["docs.write_markdown"], instruction: "Write from {{steps.research.output}}.",
      deliverable: { file: "tides.md", words: { target: "{{inputs.length}}" }, requireSections: ["Tides"] }
    }
  ] as Array<Step>,
  outputKinds: ["markdown"],
  ...fields
})

const create = async (client = alice.client, body: Record<string, unknown> = draft()) => {
  const answer = await client.post("/api/studio/generators", body)
  if (answer.status !== 200) throw new Error(`creating a generator failed: ${answer.text}`)
  return answer.body
}

const query = <T extends object>(node: TestNode, text: string, ...params: Array<string>) =>
  node.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<T>(text, params)))

const generatorCount = async () => (await query<{ n: number }>(context.node, "SELECT count(*) AS n FROM generators"))[0].n

describe("POST /api/studio/generators", () => {
  it("creates the generator for the caller with the spec's defaults", async () => {
    const generator = await create()
    expect(generator).toMatchObject({
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
    expect(generator.steps[0]).toEqual({
      id: "research", title: "Research {{inputs.place}}", role: "researcher", skills: ["web.search", "web.fetch"],
      instruction: "Find tide tables for {{inputs.place}}.", tier: "cheap", dependsOn: [], outputKind: "markdown"
    })
    expect(generator.steps[1].deliverable).toEqual({
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
    expect((await alice.client.get(`/api/studio/generators/${generator.id}`)).body).toEqual(generator)
    expect((await alice.client.get(`/api/studio/generators/${generator.slug}`)).body).toEqual(generator)
  })

  it("derives the slug from the name and de-duplicates it with -2, -3", async () => {
    const slugs = []
    for (let n = 0; n < 3; n += 1) slugs.push((await create(alice.client, draft({ name: "Café Menu: Spring!" }))).slug)
    expect(slugs).toEqual(["cafe-menu-spring", "cafe-menu-spring-2", "cafe-menu-spring-3"])
    expect((await create(bob.client, draft({ name: "Anything", slug: "my-own-slug" }))).slug).toBe("my-own-slug")
  })

  it("refuses a supplied slug that another generator has (rule unique)", async () => {
    await create(alice.client, draft({ name: "Taken", slug: "taken-slug" }))
    const answer = await bob.client.post("/api/studio/generators", draft({ slug: "taken-slug" }))
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ error: "generator_duplicate_slug", details: { rule: "unique", slug: "taken-slug" } })
    expect((await bob.client.post("/api/studio/generators", draft({ slug: "Not A Slug" }))).body.error).toBe("invalid_request")
  })

  it("refuses a body naming an owner, an id, runs or a date, or any field it does not know", async () => {
    for (const [field, value] of [["ownerId", "x"], ["id", "x"], ["runs", 9], ["createdAt", "2020-01-01"], ["owner", "x"]] as const) {
      const answer = await alice.client.post("/api/studio/generators", { ...draft(), [field]: value })
      expect(answer.status, field).toBe(400)
      expect(answer.body.details, field).toEqual([expect.objectContaining({ path: [field] })])
    }
    const misspelt = await alice.client.post("/api/studio/generators", draft({ steps: [{ ...draft().steps[0], dependson: [] }] }))
    expect(misspelt.status).toBe(400)
  })
})

describe("generator validation refuses by rule, and writes nothing", () => {
  const refused = async (body: Record<string, unknown>, code: string, details: Record<string, unknown>) => {
    const before = await generatorCount()
    const answer = await alice.client.post("/api/studio/generators", body)
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ error: code, details })
    expect(typeof answer.body.message).toBe("string")
    expect(await generatorCount()).toBe(before)
  }
  const [research, write] = draft().steps

  it("rule unique: two steps with one id", async () => {
    await refused(draft({ steps: [research, { ...write, id: "research" }] }), "generator_duplicate_id", { rule: "unique", step: "research" })
  })

  it("rule skills: a skill outside the built-in catalogue (unknown, a plugin's, or one the spec keeps outside)", async () => {
    for (const skill of ["files.teleport", worldActingSkill, "docs.write_pdf", "http.json"]) {
      await refused(draft({ steps: [{ ...research, skills: ["web.search", skill] }, write] }), "generator_unknown_skill", { rule: "skills", step: "research", skill })
    }
  })

  it("rule order: a dependsOn that is not an earlier step", async () => {
    await refused(draft({ steps: [{ ...research, dependsOn: ["write"] }, write] }), "generator_forward_dependency", { rule: "order", step: "research", dependsOn: "write" })
  })

  it("rule references: reading the output of a step that is not earlier", async () => {
    await refused(
      draft({ steps: [{ ...research, instruction: "Check {{steps.write.output}}" }, write] }),
      "generator_unbacked_reference",
      { rule: "references", step: "research", reference: "write" }
    )
  })

  it("rule outputs: a declared output kind that no step produces", async () => {
    await refused(draft({ outputKinds: ["markdown", "docx"] }), "generator_undeclared_output", { rule: "outputs", outputKind: "docx" })
  })

  it("rule tier: a step on the strong tier", async () => {
    await refused(draft({ steps: [research, { ...write, tier: "strong" }] }), "generator_step_tier", { rule: "tier", step: "write", tier: "strong" })
  })

  it("an input form that is not usable JSON Schema, or a template naming a field it lacks", async () => {
    await refused(draft({ inputsSchema: { type: "object", properties: { place: { type: "text" } } } }), "generator_invalid_input_schema", { rule: "inputs" })
    await refused(draft({ steps: [{ ...research, title: "On {{inputs.city}}" }, write] }), "generator_unknown_input", { rule: "inputs", input: "city" })
  })
})

describe("GET /api/studio/generators", () => {
  it("lists public generators and the caller's own (first), never another's private one", async () => {
    const secret = await create(alice.client, draft({ name: "Alice private", isPublic: false }))
    const shared = await create(alice.client, draft({ name: "Alice shared" }))
    const bobs = await create(bob.client, draft({ name: "Bob private", isPublic: false }))
    const forBob = (await bob.client.get("/api/studio/generators")).body as Array<any>
    const ids = forBob.map((generator) => generator.id)
    expect(ids).toContain(shared.id)
    expect(ids).not.toContain(secret.id)
    expect(forBob.filter((generator) => generator.ownerId === bob.being.id)).toEqual(forBob.slice(0, forBob.filter((g) => g.ownerId === bob.being.id).length))
    expect(ids).toContain(bobs.id)
    expect(Object.keys(forBob[0]).sort()).toEqual(["description", "icon", "id", "name", "outputKinds", "ownerId", "runs", "slug"])
    expect((await alice.client.get("/api/studio/generators")).body.map((generator: any) => generator.id)).toContain(secret.id)
    expect((await context.owner.client.get("/api/studio/generators")).body.map((generator: any) => generator.id)).not.toContain(secret.id)
  })

  it("counts the caller's own runs only, in the list and on the record", async () => {
    const shared = await create(alice.client, draft({ name: "Counted tides" }))
    for (let run = 0; run < 2; run++) {
      const started = await alice.client.post("/api/studio/projects", { generatorId: shared.id, inputs: { place: "Brest" } })
      expect(started.status, started.text).toBe(200)
    }
    const runsIn = async (client: typeof alice.client) =>
      ((await client.get("/api/studio/generators")).body as Array<any>).find((generator) => generator.id === shared.id)?.runs
    expect(await runsIn(alice.client)).toBe(2)
    expect(await runsIn(bob.client)).toBe(0)
    expect((await bob.client.get(`/api/studio/generators/${shared.slug}`)).body.runs).toBe(0)
    expect((await alice.client.get(`/api/studio/generators/${shared.slug}`)).body.runs).toBe(2)
    const started = await bob.client.post("/api/studio/projects", { generatorId: shared.id, inputs: { place: "Sète" } })
    expect(started.status, started.text).toBe(200)
    expect(await runsIn(bob.client)).toBe(1)
    expect(await runsIn(alice.client)).toBe(2)
  })

  it("shows another's private generator to nobody but its owner and the world owner", async () => {
    const secret = await create(alice.client, draft({ name: "Hidden recipe", isPublic: false }))
    for (const key of [secret.id, secret.slug]) {
      const answer = await bob.client.get(`/api/studio/generators/${key}`)
      expect(answer.status, key).toBe(403)
      expect(answer.text).not.toContain("Find tide tables")
    }
    expect((await context.owner.client.get(`/api/studio/generators/${secret.slug}`)).body.id).toBe(secret.id)
    expect((await bob.client.get("/api/studio/generators/no-such-generator")).status).toBe(404)
  })
})

describe("PUT and DELETE /api/studio/generators/:id", () => {
  it("lets the generator's owner replace it, keeping id, slug, owner, runs and createdAt", async () => {
    const generator = await create(alice.client, draft({ name: "Replace me" }))
    const answer = await alice.client.request("PUT", `/api/studio/generators/${generator.id}`, draft({ name: "Replaced", icon: "🌊", isPublic: false }))
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      id: generator.id, slug: "replace-me", ownerId: alice.being.id, runs: 0, createdAt: generator.createdAt, name: "Replaced", icon: "🌊", isPublic: false
    })
    const moved = await alice.client.request("PUT", `/api/studio/generators/${generator.id}`, draft({ slug: "replaced" }))
    expect(moved.body.slug).toBe("replaced")
    expect((await alice.client.request("PUT", `/api/studio/generators/${generator.id}`, draft({ slug: "replaced" }))).status).toBe(200)
  })

  it("lets the world owner replace and delete a member's generator", async () => {
    const generator = await create(alice.client, draft({ name: "Owner edits" }))
    const path = `/api/studio/generators/${generator.id}`
    const replaced = await context.owner.client.request("PUT", path, draft({ name: "Edited by the owner" }))
    expect(replaced.body).toMatchObject({ name: "Edited by the owner", ownerId: alice.being.id })
    expect((await context.owner.client.del(path)).body).toEqual({ ok: true })
    expect((await alice.client.get(path)).status).toBe(404)
  })

  it("refuses anyone else with 403, a seeded generator included, and changes nothing", async () => {
    const generator = await create(alice.client, draft({ name: "Not yours" }))
    const path = `/api/studio/generators/${generator.id}`
    expect((await bob.client.request("PUT", path, draft({ name: "Mine" }))).status).toBe(403)
    expect((await bob.client.del(path)).status).toBe(403)
    expect((await alice.client.get(path)).body).toEqual(generator)
    const seeded = (await bob.client.get("/api/studio/generators/blog-post")).body
    expect((await bob.client.request("PUT", `/api/studio/generators/${seeded.id}`, draft())).status).toBe(403)
    expect((await bob.client.del(`/api/studio/generators/${seeded.id}`)).status).toBe(403)
  })

  it("validates an edit like a create, and refuses a slug another generator has", async () => {
    const generator = await create(alice.client, draft({ name: "Stays valid" }))
    const path = `/api/studio/generators/${generator.id}`
    const strong = await alice.client.request("PUT", path, draft({ steps: [draft().steps[0], { ...draft().steps[1], tier: "strong" }] }))
    expect(strong.body).toMatchObject({ error: "generator_step_tier" })
    const clash = await alice.client.request("PUT", path, draft({ slug: "blog-post" }))
    expect(clash.body).toMatchObject({ error: "generator_duplicate_slug" })
    expect((await alice.client.get(path)).body).toEqual(generator)
  })

  it("answers 404 for an unknown id, and the owner deletes their own", async () => {
    expect((await alice.client.request("PUT", "/api/studio/generators/nope", draft())).status).toBe(404)
    expect((await alice.client.del("/api/studio/generators/nope")).status).toBe(404)
    const generator = await create(alice.client, draft({ name: "Short lived" }))
    expect((await alice.client.del(`/api/studio/generators/${generator.id}`)).status).toBe(200)
    expect((await alice.client.get(`/api/studio/generators/${generator.slug}`)).status).toBe(404)
  })
})

describe("the seeded catalogue", () => {
  it("holds at least six public generators of the system owner, each passing validation again as a member's copy", async () => {
    const list = (await bob.client.get("/api/studio/generators")).body as Array<any>
    const seeded = list.filter((generator) => generator.ownerId === "system")
    expect(seeded.map((generator) => generator.slug).sort()).toEqual(generatorCatalogue.map((seed) => seed.slug).sort())
    expect(seeded.length).toBeGreaterThanOrEqual(6)
    for (const summary of seeded) {
      const { id, ownerId, runs, createdAt, slug, ...fields } = (await bob.client.get(`/api/studio/generators/${summary.slug}`)).body
      expect(fields.isPublic).toBe(true)
      const copy = await bob.client.post("/api/studio/generators", fields)
      expect(copy.status, `${slug}: ${copy.text}`).toBe(200)
      expect(copy.body.slug).toBe(`${slug}-2`)
      await bob.client.del(`/api/studio/generators/${copy.body.id}`)
    }
  })

  it("gives every generator a real input form with hints and contracts on its steps", () => {
    for (const seed of generatorCatalogue) {
      const fields = Object.values(seed.inputsSchema.properties as Record<string, Record<string, unknown>>)
      expect(fields.length, seed.slug).toBeGreaterThanOrEqual(3)
      expect(fields.some((field) => "x-placeholder" in field || "x-multiline" in field), seed.slug).toBe(true)
      expect(seed.steps.every((step) => step.deliverable?.file !== undefined), seed.slug).toBe(true)
    }
    const hints = JSON.stringify(generatorCatalogue.map((seed) => seed.inputsSchema))
    for (const hint of ["x-multiline", "x-placeholder", "x-advanced", "x-showWhen"]) expect(hints).toContain(hint)
  })

  it("fails loudly on a seed that breaks a rule, naming it", async () => {
    const broken: GeneratorSeed = { ...generatorCatalogue[0], slug: "broken-seed", steps: [{ ...generatorCatalogue[0].steps[0], tier: "strong" }] }
    await expect(context.node.runtime.runPromise(seedGenerators([broken]))).rejects.toThrow(/broken-seed.*generator_step_tier/)
    expect((await bob.client.get("/api/studio/generators/broken-seed")).status).toBe(404)
  })

  it("leaves alone a member's generator that holds a seed's slug", async () => {
    const squatter = await create(alice.client, draft({ name: "Squatter", slug: "future-seed" }))
    await context.node.runtime.runPromise(seedGenerators([{ ...generatorCatalogue[0], slug: "future-seed" }]))
    expect((await alice.client.get("/api/studio/generators/future-seed")).body).toEqual(squatter)
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
