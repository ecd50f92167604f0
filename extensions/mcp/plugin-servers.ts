/**
 * Plugins that are MCP servers (a manifest's `mcp`), for the extension host (kernel/extensions/mcp-servers.ts). A
 * stdio server is started in the node's process sandbox (nova: the plugin's folder read-only, its data folder the one
 * writable folder, no network unless `network` is granted); a remote one is reached by its URL with the `network`
 * grant, through the node's outbound address policy, with the bearer token the owner gave at install, sealed
 * (./plugin-tokens.ts). Either is spoken to with the SDK's client (./server-connection.ts), and its tools become
 * skills `<namespace>.<tool>`: the tool's JSON Schema is the skill's input, checked by ajv before the call (and so
 * before the approval gate), the tool's content (text and structured content kept) its output. A tool is world-acting
 * (the approval gate, exact input) unless its annotations say `readOnlyHint: true` and `openWorldHint: false`. When
 * the server says its tools changed, the skills follow. A server that dies, or that cannot start when the node loads
 * the plugin, is started again with backoff (1 s doubling to 60 s); meanwhile the plugin shows `error` with why and its
 * skills are gone, and they come back as the server lists its tools again (a tool that vanished stays gone). At
 * install a server that cannot start refuses the install.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import type { PluginExtension } from "../../kernel/contract/manifest.ts"
import { activationFailed, contributionOf } from "../../kernel/extensions/activation.ts"
import { publishedSchema } from "../../kernel/extensions/isolate/plugin-isolate.ts"
import type { McpServerChange, McpServersShape } from "../../kernel/extensions/mcp-servers.ts"
import { compileJsonSchema } from "../../kernel/json-schema.ts"
import type { McpPluginTokens } from "./plugin-tokens.ts"
import { openServer, type OpenedServer, type ServerReach } from "./server-connection.ts"

export type { ServerRequest, SpawnedServer, SpawnServer } from "./server-connection.ts"

const firstDelayMs = 1000
const longestDelayMs = 60_000

/** What a tool answers, as the skill's output: its content, and its structured content when it has some. */
const ToolOutput = {
  type: "object",
  properties: { content: { type: "array" }, structuredContent: { type: "object" } },
  required: ["content"]
}

const worldActing = (tool: Tool) =>
  !(tool.annotations?.readOnlyHint === true && tool.annotations?.openWorldHint === false)

/** A tool's name as the skill's id: one lowercase segment, as every extension id is; others are left out. */
const skillId = (name: string) => (/^[a-z][a-z0-9_-]{0,63}$/.test(name) ? name : null)

const textOf = (content: ReadonlyArray<{ readonly type: string; readonly text?: string }>) =>
  content.flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : [])).join("\n")

const retrying = (reason: string, delayMs: number) => `${reason}; starting it again in ${delayMs / 1000} s.`

type Contributions = McpServerChange extends Either.Either<infer R, unknown> ? R : never

interface Connected {
  readonly opened: OpenedServer
  readonly lists: Queue.Queue<ReadonlyArray<Tool>>
  readonly contributions: Contributions
}

export const mcpPluginServers = (reach: ServerReach, tokens: McpPluginTokens): McpServersShape => ({
  forget: tokens.forget,
  start: (plugin, changed) =>
    Effect.gen(function* () {
      const { manifest } = plugin
      const declared = manifest.mcp
      if (declared === null) return yield* activationFailed(manifest, "it names no MCP server")
      if ("url" in declared && !plugin.granted.includes("network")) {
        return yield* activationFailed(manifest, "a remote MCP server needs the network grant")
      }
      const token =
        plugin.install !== undefined
          ? plugin.install.token
          : "url" in declared
            ? yield* tokens.read(manifest.id)
            : Option.none()
      let stopped = false
      let live: Connected | null = null

      const skillsOf = (tools: ReadonlyArray<Tool>) =>
        Effect.forEach(
          tools.flatMap((tool) => {
            const id = skillId(tool.name)
            return id === null ? [] : [{ tool, id }]
          }),
          ({ tool, id }) =>
            Effect.map(
              Effect.promise(() =>
                compileJsonSchema(tool.inputSchema).catch(() => (_: unknown) => [
                  "the tool's input schema is not valid"
                ])
              ),
              (check) => {
                const declaration: PluginExtension = {
                  kind: "skill",
                  id,
                  title: tool.title ?? tool.name,
                  description: tool.description ?? "",
                  uses: worldActing(tool) ? ["world-acting"] : []
                }
                const value = {
                  description: tool.description?.trim() || `The ${tool.name} tool of ${manifest.name}.`,
                  input: publishedSchema(tool.inputSchema, check),
                  output: publishedSchema(ToolOutput, null),
                  run: async (input: unknown, context: { readonly signal: AbortSignal }) => {
                    if (live === null)
                      throw new Error(`${manifest.name}'s MCP server is restarting; try again shortly.`)
                    const result = await live.opened.client.callTool(
                      { name: tool.name, arguments: input as Record<string, unknown> },
                      undefined,
                      { signal: context.signal }
                    )
                    const content = (result.content ?? []) as ReadonlyArray<{ type: string; text?: string }>
                    if (result.isError === true) throw new Error(textOf(content) || `${tool.name} failed.`)
                    return result.structuredContent === undefined
                      ? { content }
                      : { content, structuredContent: result.structuredContent }
                  }
                }
                return contributionOf(manifest, declaration, value, plugin.granted, plugin.adapters)
              }
            )
        )

      const connect = Effect.gen(function* () {
        // The lists the server sends as its tools change, taken by `watch` while this connection is the live one.
        const lists = yield* Queue.unbounded<ReadonlyArray<Tool>>()
        const opened = yield* openServer(plugin, declared, token, reach, (tools) => Queue.unsafeOffer(lists, tools))
        return { opened, lists, contributions: yield* skillsOf(opened.tools) } satisfies Connected
      })

      /** Follows the server's tool list (its skills become the plugin's) until it stops, then starts it again. */
      const watch = (running: Connected): Effect.Effect<void> =>
        Effect.gen(function* () {
          const follow = Effect.flatMap(Queue.take(running.lists), (tools) =>
            stopped ? Effect.void : Effect.map(skillsOf(tools), (skills) => changed(Either.right(skills)))
          )
          const how = yield* Effect.race(running.opened.stopped, Effect.forever(follow))
          live = null
          if (!stopped) yield* retry(`The MCP server stopped (${how})`)
        })

      /** Starts the server again with backoff until it lists its tools or is stopped. */
      const retry = (first: string): Effect.Effect<void> =>
        Effect.gen(function* () {
          let delayMs = firstDelayMs
          let reason = first
          for (;;) {
            changed(Either.left({ message: retrying(reason, delayMs) }))
            yield* Effect.sleep(Duration.millis(delayMs))
            if (stopped) return
            const again = yield* Effect.either(connect)
            if (stopped) {
              if (Either.isRight(again)) again.right.opened.stop()
              return
            }
            if (Either.isRight(again)) {
              live = again.right
              changed(Either.right(again.right.contributions))
              return yield* watch(again.right)
            }
            reason = `The MCP server could not start again: ${again.left.message}`
            delayMs = Math.min(delayMs * 2, longestDelayMs)
          }
        })

      const stop = () => {
        stopped = true
        live?.opened.stop()
      }
      const first = yield* Effect.either(connect)
      if (Either.isLeft(first)) {
        if (plugin.install !== undefined) return yield* activationFailed(manifest, first.left.message)
        const reason = `The MCP server could not start: ${first.left.message}`
        yield* Effect.forkDaemon(retry(reason))
        return { contributions: [], failing: retrying(reason, firstDelayMs), stop }
      }
      if (plugin.install !== undefined) {
        yield* tokens.keep(manifest.id, plugin.install.token).pipe(
          Effect.mapError((error) => activationFailed(manifest, `its token could not be kept: ${error.message}`)),
          Effect.tapError(() => Effect.sync(first.right.opened.stop))
        )
      }
      live = first.right
      yield* Effect.forkDaemon(watch(first.right))
      return { contributions: first.right.contributions, failing: null, stop }
    })
})
