/**
 * Plugins that are MCP servers (a manifest's `mcp`), for the extension host (kernel/extensions/mcp-servers.ts). A
 * stdio server is started in the node's process sandbox (nova: the plugin's folder read-only, its data folder the one
 * writable folder, no network unless `network` is granted), spoken to with the SDK's client, and its tools become
 * skills `<namespace>.<tool>`: the tool's JSON Schema is the skill's input, checked by ajv before the call (and so
 * before the approval gate), the tool's content (text and structured content kept) its output. A tool is world-acting
 * (the approval gate, exact input) unless its annotations say `readOnlyHint: true` and `openWorldHint: false`. A server
 * that dies is restarted with backoff (1 s doubling to 60 s); meanwhile the plugin shows `error` with why and its
 * skills are gone, and they come back as the server lists its tools again (a tool that vanished stays gone).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import type { ChildProcessWithoutNullStreams } from "node:child_process"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { PluginExtension } from "../../kernel/contract/manifest.ts"
import { activationFailed, contributionOf } from "../../kernel/extensions/activation.ts"
import { publishedSchema } from "../../kernel/extensions/isolate/plugin-isolate.ts"
import type { McpServerChange, McpServersShape } from "../../kernel/extensions/mcp-servers.ts"
import { pluginDataDir } from "../../kernel/extensions/plugin-files.ts"
import type { FileStoreSettings } from "../../kernel/file-stores.ts"
import { compileJsonSchema } from "../../kernel/json-schema.ts"
import { ChildTransport } from "./child-transport.ts"

export interface ServerRequest {
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly pluginFolder: string
  readonly dataFolder: string
  readonly network: boolean
}

export interface SpawnedServer {
  readonly child: ChildProcessWithoutNullStreams
  readonly stop: () => void
}

/** Starts a server process in the sandbox (the sandbox feature's `serve`, bound by host/extension-host.ts). */
export type SpawnServer = (request: ServerRequest) => Effect.Effect<SpawnedServer, { readonly message: string }>

const connectTimeout = Duration.seconds(10)
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

interface Connected {
  readonly client: Client
  readonly spawned: SpawnedServer
  readonly transport: ChildTransport
  readonly contributions: McpServerChange extends Either.Either<infer R, unknown> ? R : never
}

export const mcpPluginServers = (spawnServer: SpawnServer, settings: FileStoreSettings): McpServersShape => ({
  start: (plugin, changed) =>
    Effect.gen(function* () {
      const { manifest } = plugin
      const declared = manifest.mcp
      if (declared === null || !("command" in declared)) {
        return yield* activationFailed(manifest, "only MCP servers run from the plugin's folder (stdio) are supported")
      }
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
                    const result = await live.client.callTool(
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
        const spawned = yield* spawnServer({
          command: declared.command,
          args: declared.args,
          pluginFolder: plugin.dir,
          dataFolder: pluginDataDir(settings, manifest.namespace),
          network: plugin.granted.includes("network")
        })
        const transport = new ChildTransport(spawned.child)
        const client = new Client({ name: "personal-node", version: "1.0.0" })
        const listed = yield* Effect.tryPromise({
          try: async () => {
            await client.connect(transport)
            return (await client.listTools()).tools
          },
          catch: (error) => ({
            message: `it did not answer as an MCP server: ${error instanceof Error ? error.message : String(error)}${transport.stderr === "" ? "" : ` (${transport.stderr.trim().slice(-300)})`}`
          })
        }).pipe(
          Effect.timeoutFail({
            duration: connectTimeout,
            onTimeout: () => ({ message: "it did not list its tools within 10 seconds" })
          }),
          Effect.tapError(() => Effect.sync(spawned.stop))
        )
        return { client, spawned, transport, contributions: yield* skillsOf(listed) } satisfies Connected
      })

      const exited = (child: ChildProcessWithoutNullStreams) =>
        Effect.async<string>((resume) => {
          const said = () => resume(Effect.succeed(`exit code ${child.exitCode ?? child.signalCode ?? "unknown"}`))
          if (child.exitCode !== null || child.signalCode !== null) said()
          else child.once("close", said)
        })

      /** Waits for the server to die, then starts it again with backoff until it lists its tools or is stopped. */
      const supervise = (running: Connected): Effect.Effect<void> =>
        Effect.gen(function* () {
          const how = yield* exited(running.spawned.child)
          live = null
          if (stopped) return
          const why = running.transport.stderr.trim().slice(-300)
          let delayMs = firstDelayMs
          let reason = `The MCP server stopped (${how}${why === "" ? "" : `: ${why}`})`
          for (;;) {
            changed(Either.left({ message: `${reason}; starting it again in ${delayMs / 1000} s.` }))
            yield* Effect.sleep(Duration.millis(delayMs))
            if (stopped) return
            const again = yield* Effect.either(connect)
            if (stopped) {
              if (Either.isRight(again)) again.right.spawned.stop()
              return
            }
            if (Either.isRight(again)) {
              live = again.right
              changed(Either.right(again.right.contributions))
              return yield* supervise(again.right)
            }
            reason = `The MCP server could not start again: ${again.left.message}`
            delayMs = Math.min(delayMs * 2, longestDelayMs)
          }
        })

      const first = yield* Effect.mapError(connect, (error) => activationFailed(manifest, error.message))
      live = first
      yield* Effect.forkDaemon(supervise(first))
      return {
        contributions: first.contributions,
        stop: () => {
          stopped = true
          live?.spawned.stop()
        }
      }
    })
})
