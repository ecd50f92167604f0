/** MCP's stdio transport over a server process the node started itself (in its sandbox): newline-delimited JSON-RPC. */
import type { ChildProcessWithoutNullStreams } from "node:child_process"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import { mcpStdio } from "./sdk.ts"

/** The last of what the server wrote to stderr, to say why it stopped. */
const STDERR_KEPT = 2000

export class ChildTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void
  onclose?: () => void
  onerror?: (error: Error) => void
  private readonly child: ChildProcessWithoutNullStreams
  private readonly buffer = new (mcpStdio().ReadBuffer)()
  stderr = ""

  constructor(child: ChildProcessWithoutNullStreams) {
    this.child = child
  }

  async start(): Promise<void> {
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.buffer.append(chunk)
      for (;;) {
        let message: JSONRPCMessage | null
        try {
          message = this.buffer.readMessage()
        } catch (error) {
          this.onerror?.(error instanceof Error ? error : new Error(String(error)))
          continue
        }
        if (message === null) break
        this.onmessage?.(message)
      }
    })
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString("utf8")).slice(-STDERR_KEPT)
    })
    this.child.stdin.on("error", () => {})
    this.child.on("close", () => this.onclose?.())
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.child.stdin.writable) throw new Error("the server's stdin is closed")
    this.child.stdin.write(mcpStdio().serializeMessage(message))
  }

  async close(): Promise<void> {
    this.child.stdin.end()
  }
}
