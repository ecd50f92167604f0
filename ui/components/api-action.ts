/**
 * One thing a person asks the node to do, from a form or a button: while the call runs the
 * controls show `busy` (so a second click does not send it twice), a refusal is told in the
 * node's words (`error`), and a success may be told too (`notice`). Each run clears the last
 * run's words, so what the person reads is about what they did last.
 */
import type { ReactiveControllerHost } from "lit"
import type * as Effect from "effect/Effect"
import { type NodeClient, request } from "../api/client.ts"

// Not registered with addController: it has nothing to do on connect or update, it only asks
// its host to draw again when its state changes.
export class ApiAction {
  busy = false

  error = ""

  notice = ""

  private readonly host: ReactiveControllerHost

  constructor(host: ReactiveControllerHost) {
    this.host = host
  }

  /**
   * Runs one call. `succeeded` gets the answer; the words it returns, if any, become the notice.
   * Answers whether the call succeeded, for sections that reload only then.
   */
  async run<A>(
    call: (client: NodeClient) => Effect.Effect<A, unknown>,
    succeeded?: (value: A) => string | void
  ): Promise<boolean> {
    this.busy = true
    this.error = ""
    this.notice = ""
    this.host.requestUpdate()
    const result = await request(call)
    this.busy = false
    if (result.ok) this.notice = succeeded?.(result.value) ?? ""
    else this.error = result.failure.message
    this.host.requestUpdate()
    return result.ok
  }

  /**
   * Tells a failure the app found itself: a check before sending (two passwords that differ), or a success with a catch
   * (an invitation whose mail did not leave).
   */
  fail(message: string): void {
    this.error = message
    this.host.requestUpdate()
  }
}
