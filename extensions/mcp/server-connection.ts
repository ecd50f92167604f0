/**
 * A connection to the MCP server a plugin is, by its manifest's `mcp`: a command in its folder started in the sandbox
 * and spoken to over stdio, or a remote server by URL over Streamable HTTP, every request through the node's outbound
 * address policy (kernel/http/outbound.ts) with the owner's bearer token, if any. Either way the SDK's client connects,
 * lists the tools, and hands on the new list each time the server says its tools changed (`tools/list_changed`).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import type { ChildProcessWithoutNullStreams } from "node:child_process"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type { McpServerDeclaration } from "../../kernel/contract/manifest.ts"
import type { McpServerPlugin } from "../../kernel/extensions/mcp-servers.ts"
import { pluginDataDir } from "../../kernel/extensions/plugin-files.ts"
import type { FileStoreSettings } from "../../kernel/file-stores.ts"
import { OutboundError } from "../../kernel/http/outbound.ts"
import { hostVersion } from "../../kernel/version.ts"
import { ChildTransport } from "./child-transport.ts"
import { mcpClient, mcpHttpClient } from "./sdk.ts"

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

/** What a connection needs besides the plugin: where processes start, and how the node reaches other hosts. */
export interface ServerReach {
  readonly spawnServer: SpawnServer
  readonly settings: FileStoreSettings
  /** A fetch under the node's outbound address policy. */
  readonly fetch: (url: string | URL, init?: RequestInit) => Promise<Response>
}

export interface OpenedServer {
  readonly client: Client
  readonly tools: ReadonlyArray<Tool>
  /** Succeeds, saying why, when the server stops answering for good (its process exited, its session closed). */
  readonly stopped: Effect.Effect<string>
  readonly stop: () => void
}

const connectTimeout = Duration.seconds(10)

interface Opening {
  readonly transport: Transport
  readonly stopped: (client: Client) => Effect.Effect<string>
  readonly stop: (client: Client) => void
  /** What the server said on its way down, to add to why it failed. */
  readonly said: () => string
}

const spawned = (
  declared: { readonly command: string; readonly args: ReadonlyArray<string> },
  plugin: McpServerPlugin,
  reach: ServerReach
) =>
  Effect.map(
    reach.spawnServer({
      command: declared.command,
      args: declared.args,
      pluginFolder: plugin.dir,
      dataFolder: pluginDataDir(reach.settings, plugin.manifest.namespace),
      network: plugin.granted.includes("network")
    }),
    (server): Opening => {
      const transport = new ChildTransport(server.child)
      const said = () => transport.stderr.trim().slice(-300)
      return {
        transport,
        said,
        stop: () => server.stop(),
        stopped: () =>
          Effect.async<string>((resume) => {
            const { child } = server
            const exited = () => {
              const why = said()
              resume(
                Effect.succeed(
                  `exit code ${child.exitCode ?? child.signalCode ?? "unknown"}${why === "" ? "" : `: ${why}`}`
                )
              )
            }
            if (child.exitCode !== null || child.signalCode !== null) exited()
            else child.once("close", exited)
          })
      }
    }
  )

const remote = (url: string, token: Option.Option<Redacted.Redacted<string>>, reach: ServerReach): Opening => {
  const transport = new (mcpHttpClient().StreamableHTTPClientTransport)(new URL(url), {
    fetch: reach.fetch,
    ...(Option.isSome(token)
      ? { requestInit: { headers: { authorization: `Bearer ${Redacted.value(token.value)}` } } }
      : {})
  })
  return {
    transport,
    said: () => "",
    stop: (client) => void client.close().catch(() => undefined),
    // A remote server is down when it can no longer be reached or has forgotten the session (it restarted): the
    // connection is closed and made again, as a process that died is started again.
    stopped: (client) =>
      Effect.async<string>((resume) => {
        let said = false
        const down = (why: string) => {
          if (said) return
          said = true
          resume(Effect.succeed(why))
          void client.close().catch(() => undefined)
        }
        client.onclose = () => down("its session closed")
        client.onerror = (error) => {
          const why = gone(error)
          if (why !== null) down(why)
        }
      })
  }
}

/** Whether an error of the transport means the session is lost, and why; null for an error of one message. */
const gone = (error: unknown): string | null => {
  if ((error as { readonly code?: unknown } | null)?.code === 404) return "it no longer knows the session (HTTP 404)"
  if (error instanceof OutboundError) return `it could not be reached: ${error.message}`
  const message = error instanceof Error ? error.message : ""
  return message.startsWith("Maximum reconnection attempts") ? "its event stream could not be opened again" : null
}

/** Why a server could not be connected to, in words: a refused token (the SDK's error carries the HTTP status). */
const whyNot = (error: unknown, said: string, withToken: boolean) => {
  const status = (error as { readonly code?: unknown } | null)?.code
  if (status === 401 || status === 403) {
    return withToken
      ? `it refused the token it was given (HTTP ${status}); install it again with the right one`
      : `it asks for a token (HTTP ${status}); install it again with one`
  }
  if (error instanceof OutboundError) return `it could not be reached: ${error.message}`
  // The SDK's message quotes the server's whole answer: kept to its start.
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 300)
  return `it did not answer as an MCP server: ${message}${typeof status === "number" && status >= 400 ? ` (HTTP ${status})` : ""}${said === "" ? "" : ` (${said})`}`
}

export const openServer = (
  plugin: McpServerPlugin,
  declared: McpServerDeclaration,
  token: Option.Option<Redacted.Redacted<string>>,
  reach: ServerReach,
  toolsChanged: (tools: ReadonlyArray<Tool>) => void
): Effect.Effect<OpenedServer, { readonly message: string }> =>
  Effect.gen(function* () {
    const opening = "url" in declared ? remote(declared.url, token, reach) : yield* spawned(declared, plugin, reach)
    const client = new (mcpClient().Client)(
      { name: "personal-node", version: hostVersion },
      {
        listChanged: {
          tools: { onChanged: (error, tools) => (error === null && tools !== null ? toolsChanged(tools) : undefined) }
        }
      }
    )
    const stop = () => opening.stop(client)
    const tools = yield* Effect.tryPromise({
      try: async () => {
        await client.connect(opening.transport)
        return (await client.listTools()).tools
      },
      catch: (error) => ({ message: whyNot(error, opening.said(), Option.isSome(token)) })
    }).pipe(
      Effect.timeoutFail({
        duration: connectTimeout,
        onTimeout: () => ({ message: "it did not list its tools within 10 seconds" })
      }),
      Effect.tapError(() => Effect.sync(stop))
    )
    return { client, tools, stopped: opening.stopped(client), stop }
  })
