/**
 * "Use the demo models": one click binds every tier that nothing can call yet to the node's built-in
 * demo models (placeholder text, nothing leaves the machine), so a new owner reaches a finished run
 * without a key. Tiers already bound stay as they are. From Settings → Models and the first steps.
 */
import * as Effect from "effect/Effect"
import type { NodeClient } from "../api/client.ts"

export const useDemoModels = (client: NodeClient) =>
  Effect.flatMap(client.llm.tiers(), (tiers) =>
    Effect.forEach(
      tiers.filter((tier) => tier.source === "none"),
      (tier) => client.llm.bindTier({ path: { tier: tier.tier }, payload: { providerId: "demo", model: "demo" } }),
      { concurrency: 1 }
    )
  )

/** What one click did, in words. */
export const demoModelsWords = (bound: ReadonlyArray<unknown>) =>
  bound.length === 0
    ? "Every tier can already be called: nothing was changed."
    : `The demo models now serve ${bound.length} tier${bound.length === 1 ? "" : "s"}: they write placeholder text.`
