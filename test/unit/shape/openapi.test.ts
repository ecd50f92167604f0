/**
 * The contract documents itself: in the OpenAPI document derived from NodeApi (what
 * /api/openapi.json serves) every operation has a summary and a description, every tag a
 * description, the document names a server, and no two paths are one template (paths that differ
 * only by a parameter's name). `npm test` also lints the document with Redocly; this test says
 * which endpoint broke the rule, and runs with the unit tests.
 */
import { describe, expect, it } from "@effect/vitest"
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { NodeApi } from "../../../host/contract/api.ts"

const methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const

/** Every rule the document breaks, one line each, naming the operation, tag or path. */
const problems = (spec: OpenApi.OpenAPISpec): Array<string> => {
  const found: Array<string> = []
  const blank = (text: string | undefined) => text === undefined || text.trim() === ""
  const templates = new Map<string, string>()
  for (const [path, item] of Object.entries(spec.paths)) {
    const template = path.replace(/\{[^}]+\}/g, "{}")
    const other = templates.get(template)
    if (other !== undefined) found.push(`${other} and ${path} are one template`)
    else templates.set(template, path)
    for (const method of methods) {
      const operation = item[method]
      if (operation === undefined) continue
      const name = `${method.toUpperCase()} ${path} (${operation.operationId})`
      if (blank(operation.summary)) found.push(`${name} has no summary`)
      if (blank(operation.description)) found.push(`${name} has no description`)
    }
  }
  for (const tag of spec.tags) if (blank(tag.description)) found.push(`tag ${tag.name} has no description`)
  if ((spec.servers ?? []).length === 0) found.push("the document names no server")
  return found
}

describe("the OpenAPI document of NodeApi", () => {
  it("documents every operation and tag, names its server, and has no two paths of one template", () => {
    const spec = OpenApi.fromApi(NodeApi)
    expect(Object.keys(spec.paths).length).toBeGreaterThan(100)
    expect(problems(spec)).toEqual([])
  })

  it("finds an undocumented endpoint, an undocumented tag, a missing server and two paths of one template", () => {
    const Id = Schema.Struct({ id: Schema.String })
    const Key = Schema.Struct({ key: Schema.String })
    class Things extends HttpApiGroup.make("things")
      .add(HttpApiEndpoint.get("getThing", "/things/:key").setPath(Key).addSuccess(Schema.String))
      .add(
        HttpApiEndpoint.del("deleteThing", "/things/:id")
          .annotate(OpenApi.Summary, "Delete a thing")
          .setPath(Id)
          .addSuccess(Schema.String)
      ) {}
    class Faulty extends HttpApi.make("faulty").add(Things) {}
    expect(problems(OpenApi.fromApi(Faulty))).toEqual([
      "GET /things/{key} (things.getThing) has no summary",
      "GET /things/{key} (things.getThing) has no description",
      "/things/{key} and /things/{id} are one template",
      "DELETE /things/{id} (things.deleteThing) has no description",
      "tag things has no description",
      "the document names no server"
    ])
  })
})
