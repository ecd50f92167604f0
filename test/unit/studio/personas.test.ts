import { describe, expect, it } from "vitest"
import { personaFor, personas } from "../../../seeds/personas.ts"

describe("the built-in personas", () => {
  it("are nine, one for each role a plan names, each distinct", () => {
    expect(personas.map((persona) => persona.role)).toEqual([
      "lead",
      "researcher",
      "writer",
      "editor",
      "engineer",
      "designer",
      "analyst",
      "marketer",
      "reviewer"
    ])
    for (const field of ["name", "avatar", "voice", "description"] as const) {
      expect(new Set(personas.map((persona) => persona[field])).size, field).toBe(9)
    }
    expect(new Set(personas.map((persona) => persona.skills.join())).size).toBe(9)
  })

  it("each carries values and default skills", () => {
    for (const persona of personas) {
      expect(persona.values.length).toBeGreaterThanOrEqual(3)
      expect(persona.skills.length).toBeGreaterThan(0)
      expect(["cheap", "standard"]).toContain(persona.tier)
    }
  })

  it("answer a role by name, alias or one of its words, else the lead", () => {
    expect(personaFor("Writer").role).toBe("writer")
    expect(personaFor("copywriter").role).toBe("writer")
    expect(personaFor("Senior  Copywriter").role).toBe("writer")
    expect(personaFor("Lead researcher").role).toBe("researcher")
    expect(personaFor("QA").role).toBe("reviewer")
    expect(personaFor("UX designer").role).toBe("designer")
    expect(personaFor("translator").role).toBe("lead")
  })
})
