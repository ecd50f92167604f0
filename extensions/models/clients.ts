/**
 * One `openai` SDK client per server and key. Every option is given explicitly so nothing comes
 * from the SDK's own environment variables (OPENAI_BASE_URL, OPENAI_ORG_ID, ...): the node's
 * settings are the only source. No hidden retries: each attempt is a call the ledger can see.
 */
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type OpenAI from "openai"
import type { Binding } from "./bindings.ts"
import { demoFetch } from "./demo/demo-fetch.ts"

type Sdk = typeof import("openai")

/**
 * The SDK is loaded at the first model call, not at start: it is some 240 modules, about
 * 140 ms and 28 MB that a node without a model never needs.
 */
let sdk: Sdk | undefined
export const loadSdk = async (): Promise<Sdk> => (sdk ??= await import("openai"))
/** The SDK if a call has loaded it: an SDK error can only exist once it has. */
export const loadedSdk = (): Sdk | undefined => sdk

export const makeClients = (timeoutMs: number) => {
  const clients = new Map<string, OpenAI>()
  return async (binding: Binding): Promise<OpenAI> => {
    const { default: OpenAIClient } = await loadSdk()
    const key = Option.map(binding.apiKey, Redacted.value)
    const id = `${binding.baseUrl}\n${Option.getOrElse(key, () => "")}`
    let client = clients.get(id)
    if (client === undefined) {
      client = new OpenAIClient({
        baseURL: binding.baseUrl,
        // A keyless local server: the SDK insists on a key, so it gets a placeholder and the header is dropped.
        apiKey: Option.getOrElse(key, () => "none"),
        ...(Option.isNone(key) ? { defaultHeaders: { authorization: null } } : {}),
        // The demo models answer in this process: no socket, nothing leaves the host.
        ...(binding.builtin ? { fetch: demoFetch } : {}),
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
