import { describe, expect, it } from "vitest"
import { Generator } from "../../extensions/generators/contract/generator.ts"
import { at } from "../support/json.ts"
import { apiError, bodyAs, refused, run } from "../support/node.ts"
import { worldActingSkill } from "../support/world-acting-plugin.ts"
import { draft, generators, generatorsNode, getGenerator, input, query } from "./generators-support.ts"

const { context, create } = generatorsNode()

const generatorCount = async () =>
  (await query<{ n: number }>(context.node, "SELECT count(*) AS n FROM generators"))[0]!.n

describe("POST /api/studio/generators", () => {
  it("creates the generator for the caller with the spec's defaults", async () => {
    // Raw, with only what the person wrote: the node fills in the spec's defaults (the typed client would send them
    // itself).
    const answer = await context.alice.client.raw("POST", "/api/studio/generators", draft())
    expect(answer.status).toBe(200)
    const generator = bodyAs(Generator, answer)
    expect(answer.body).toMatchObject({
      id: expect.any(String),
      ownerId: context.alice.being.id,
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
    expect(await run(getGenerator(context.alice.client, generator.id))).toEqual(generator)
    expect(await run(getGenerator(context.alice.client, generator.slug))).toEqual(generator)
  })

  it("derives the slug from the name and de-duplicates it with -2, -3", async () => {
    const slugs = []
    for (let n = 0; n < 3; n += 1)
      slugs.push((await create(context.alice.client, draft({ name: "Café Menu: Spring!" }))).slug)
    expect(slugs).toEqual(["cafe-menu-spring", "cafe-menu-spring-2", "cafe-menu-spring-3"])
    expect((await create(context.bob.client, draft({ name: "Anything", slug: "my-own-slug" }))).slug).toBe(
      "my-own-slug"
    )
  })

  it("refuses a supplied slug that another generator has (rule unique)", async () => {
    await create(context.alice.client, draft({ name: "Taken", slug: "taken-slug" }))
    const answer = await refused(
      generators(context.bob.client).createGenerator({ payload: input(draft({ slug: "taken-slug" })) })
    )
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({
      error: "generator_duplicate_slug",
      details: { rule: "unique", slug: "taken-slug" }
    })
    // A slug the contract's schema refuses before it leaves the typed client: sent raw.
    expect(
      apiError(await context.bob.client.raw("POST", "/api/studio/generators", draft({ slug: "Not A Slug" }))).error
    ).toBe("invalid_request")
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
      const answer = await context.alice.client.raw("POST", "/api/studio/generators", { ...draft(), [field]: value })
      expect(answer.status, field).toBe(400)
      expect(apiError(answer).details, field).toEqual([expect.objectContaining({ path: [field] })])
    }
    const misspelt = await context.alice.client.raw(
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
    const answer = await refused(generators(context.alice.client).createGenerator({ payload: input(body) }))
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
