/**
 * What the generators API tests share: a node with two members (Alice and Bob) and a plugin whose
 * world-acting skill is registered, a valid draft to vary, and the generator calls.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { join } from "node:path"
import { beforeAll } from "vitest"
import { GeneratorInput } from "../../extensions/generators/contract/generator.ts"
import { type Client, nodeWithOwner, registerMember, run, type Registered, type TestNode } from "../support/node.ts"
import { writeWorldActingPlugin } from "../support/world-acting-plugin.ts"

/** Starts the node before the file's tests; `create` makes a generator as Alice unless told. */
export const generatorsNode = () => {
  const context = nodeWithOwner((dataDir) => ({ pluginDir: join(dataDir, "plugins") })) as ReturnType<
    typeof nodeWithOwner
  > & { alice: Registered; bob: Registered }

  beforeAll(async () => {
    context.alice = await registerMember(context.node, context.owner.client)
    context.bob = await registerMember(context.node, context.owner.client)
    writeWorldActingPlugin(join(context.node.dataDir, "plugins"))
    await run(
      context.owner.client.api.plugins.installPlugin({
        payload: { dir: "courier", granted: ["world-acting", "filesystem"] }
      })
    )
  })

  const create = (client: Client = context.alice.client, body: Record<string, unknown> = draft()) =>
    run(client.api.studioGenerators.createGenerator({ payload: input(body) }))

  return { context, create }
}

export type Step = Record<string, unknown>

/** A valid two-step generator; `steps` and other fields replace its own. */
export const draft = (fields: Record<string, unknown> = {}) => ({
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
export const input = (body: Record<string, unknown>) => Schema.decodeUnknownSync(GeneratorInput)(body)

export const generators = (client: Client) => client.api.studioGenerators
export const getGenerator = (client: Client, idOrSlug: string) =>
  generators(client).getGenerator({ path: { id: idOrSlug } })
export const replace = (client: Client, id: string, body: Record<string, unknown>) =>
  generators(client).replaceGenerator({ path: { id }, payload: input(body) })
export const remove = (client: Client, id: string) => generators(client).deleteGenerator({ path: { id } })
export const list = (client: Client) => run(generators(client).listGenerators())

export const query = <T extends object>(node: TestNode, text: string, ...params: Array<string>) =>
  node.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<T>(text, params)))
