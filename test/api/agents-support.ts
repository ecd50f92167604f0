/**
 * What the agents API tests share: a node with a member, a plugin whose world-acting skill is
 * registered, the skills the member can see, and the calls and counts the tests make.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { join } from "node:path"
import { beforeAll } from "vitest"
import { AgentInput } from "../../extensions/agents/contract/agent.ts"
import { type Client, nodeWithOwner, registerMember, run, type Registered } from "../support/node.ts"
import { writeWorldActingPlugin } from "../support/world-acting-plugin.ts"

export const scout = { name: "Scout", role: "researcher", skills: ["files.search"] }

/** Starts the node before the file's tests; answers it with the calls bound to it. */
export const agentsNode = () => {
  const context = nodeWithOwner((dataDir) => ({ pluginDir: join(dataDir, "plugins") })) as ReturnType<
    typeof nodeWithOwner
  > & { member: Registered; registered: Array<string> }

  beforeAll(async () => {
    context.member = await registerMember(context.node, context.owner.client)
    writeWorldActingPlugin(join(context.node.dataDir, "plugins"))
    await run(
      context.owner.client.api.plugins.installPlugin({
        payload: { dir: "courier", granted: ["world-acting", "filesystem"] }
      })
    )
    context.registered = (await run(context.member.client.api.studioSkills.listSkills())).map((skill) => skill.name)
  })

  const query = <T extends object>(text: string, ...params: Array<string>) =>
    context.node.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<T>(text, params)))

  /** Creates a card; the fields `body` leaves out take the contract's defaults. */
  const create = (client: Client = context.member.client, body: Record<string, unknown> = scout) =>
    run(client.api.studioAgents.createAgent({ payload: Schema.decodeUnknownSync(AgentInput)(body) }))

  const count = async (text: string) => (await query<{ n: number }>(text))[0]!.n

  return { context, query, create, count }
}
