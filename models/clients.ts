/**
 * One `openai` SDK client per server and key. Every option is given explicitly so nothing comes
 * from the SDK's own environment variables (OPENAI_BASE_URL, OPENAI_ORG_ID, ...): the node's
 * settings are the only source. No hidden retries: each attempt is a call the ledger can see.
 */
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import OpenAI from "openai"
import type { Binding } from "./bindings.ts"

export const makeClients = (timeoutMs: number) => {
  const clients = new Map<string, OpenAI>()
  return (binding: Binding): OpenAI => {
    const key = Option.map(binding.apiKey, Redacted.value)
    const id = `${binding.baseUrl}\n${Option.getOrElse(key, () => "")}`
    let client = clients.get(id)
    if (client === undefined) {
      client = new OpenAI({
        baseURL: binding.baseUrl,
        // A keyless local server: the SDK insists on a key, so it gets a placeholder and the header is dropped.
        apiKey: Option.getOrElse(key, () => "none"),
        ...(Option.isNone(key) ? { defaultHeaders: { authorization: null } } : {}),
        organization: null,
        project: null,
        adminAPIKey: null,
        webhookSecret: null,
        maxRetries: 0,
        timeout: timeoutMs
      })
      clients.set(id, client)
    }
    return client
  }
}
