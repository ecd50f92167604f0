/**
 * The one way a capability adapter fails: a refusal whose message is the plain sentence the caller
 * reads. In a contract module so that a feature's contract tag may hand out an adapter (the plugin
 * providers' authorised fetch, kernel/contract/auth-fetch.ts); the helpers that make one stay in
 * kernel/extensions/capability-refused.ts.
 */
import * as Data from "effect/Data"

export class CapabilityRefused extends Data.TaggedError("CapabilityRefused")<{ readonly message: string }> {}
