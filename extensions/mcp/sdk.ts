/**
 * The MCP SDK at its first use: a node with no assistant connected and no MCP plugin installed never loads it. Loaded,
 * the SDK and zod, which it brings, hold about 30 MB (docs/benchmarks.md, "Idle RSS"). Its CommonJS build, one graph
 * for every part, so its classes (`McpError`) are the ones its own `instanceof` checks know.
 */
import type * as ClientModule from "@modelcontextprotocol/sdk/client/index.js"
import type * as HttpClientModule from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type * as ServerModule from "@modelcontextprotocol/sdk/server/index.js"
import type * as HttpServerModule from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import type * as StdioModule from "@modelcontextprotocol/sdk/shared/stdio.js"
import type * as TypesModule from "@modelcontextprotocol/sdk/types.js"
import { lazyModule } from "../../kernel/lazy-module.ts"

export const mcpClient = lazyModule<typeof ClientModule>("@modelcontextprotocol/sdk/client/index.js")
export const mcpHttpClient = lazyModule<typeof HttpClientModule>("@modelcontextprotocol/sdk/client/streamableHttp.js")
export const mcpServer = lazyModule<typeof ServerModule>("@modelcontextprotocol/sdk/server/index.js")
export const mcpHttpServer = lazyModule<typeof HttpServerModule>(
  "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
)
export const mcpStdio = lazyModule<typeof StdioModule>("@modelcontextprotocol/sdk/shared/stdio.js")
export const mcpTypes = lazyModule<typeof TypesModule>("@modelcontextprotocol/sdk/types.js")
