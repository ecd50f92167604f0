/**
 * The app's end of a module's bridge (the frame's end is the script the node puts in its
 * document: extensions/modules/bridge-script.ts). A message is taken only from the frame's own window
 * (`event.source`), only in this protocol, with a call id and a method of sane length, args of at
 * most `maxMessageBytes` as JSON; one call at a time per id and a few in flight at once. Each is
 * handed to `call` (POST /api/modules/:id/:extensionId/call) and answered to the frame alone.
 * The frame's origin is opaque, so the answer is addressed to any origin: only that window gets it.
 */
import type { Failure, Result } from "../../api/client.ts"

export const bridgeProtocol = "node-module-bridge/1"

/** About the node's own args limit, with room for the envelope; bigger never leaves the browser. */
export const maxMessageBytes = 40 * 1024
const maxInFlight = 8

export type BridgeCall = (method: string, args: unknown) => Promise<Result<unknown>>

const refusal = (code: string, message: string): Failure => ({ status: null, code, message })

const sizeOf = (value: unknown): number | null => {
  try {
    return new Blob([JSON.stringify(value) ?? ""]).size
  } catch {
    return null
  }
}

export class ModuleBridgeHost {
  private readonly _frame: () => HTMLIFrameElement | null
  private readonly _call: BridgeCall
  private readonly _waiting = new Set<string>()

  constructor(frame: () => HTMLIFrameElement | null, call: BridgeCall) {
    this._frame = frame
    this._call = call
  }

  attach(): void {
    window.addEventListener("message", this._onMessage)
  }

  detach(): void {
    window.removeEventListener("message", this._onMessage)
    this._waiting.clear()
  }

  private readonly _onMessage = (event: MessageEvent): void => {
    const target = this._frame()?.contentWindow ?? null
    if (target === null || event.source !== target) return
    const data: unknown = event.data
    if (typeof data !== "object" || data === null) return
    const { protocol, id, method, args } = data as Record<string, unknown>
    if (protocol !== bridgeProtocol || typeof id !== "string" || id === "" || id.length > 64) return
    const answer = (result: Result<unknown>) =>
      target.postMessage(
        result.ok
          ? { protocol, id, ok: true, result: result.value }
          : { protocol, id, ok: false, failure: result.failure },
        "*"
      )
    if (typeof method !== "string" || method === "" || method.length > 64) {
      answer({
        ok: false,
        failure: refusal("invalid_request", "A bridge call names a method (at most 64 characters).")
      })
      return
    }
    if (this._waiting.has(id)) {
      answer({ ok: false, failure: refusal("busy", `Call ${id} is still waiting for its answer.`) })
      return
    }
    if (this._waiting.size >= maxInFlight) {
      answer({
        ok: false,
        failure: refusal("busy", `At most ${maxInFlight} bridge calls at once: wait for some to finish.`)
      })
      return
    }
    const size = sizeOf(args)
    if (size === null || size > maxMessageBytes) {
      answer({
        ok: false,
        failure: refusal(
          "payload_too_large",
          `A bridge call's args must be JSON of at most ${maxMessageBytes / 1024} KB.`
        )
      })
      return
    }
    this._waiting.add(id)
    void this._call(method, args).then((result) => {
      // A call the place stopped waiting for (it left, or the frame changed) is not answered.
      if (!this._waiting.delete(id) || this._frame()?.contentWindow !== target) return
      answer(result)
    })
  }
}
